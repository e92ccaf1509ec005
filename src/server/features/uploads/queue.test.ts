import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UPLOADS_BUSY } from '../../../common/featured-content.js';
import { createTestApp } from '../../test/helpers.js';
import { postFile } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';
import { audioQueue } from './audio-check.js';
import { imageQueue } from './image-processing.js';
import { bodiesHeld } from './receive.js';
import { BUSY_RETRY_AFTER_SECONDS, heavyWork, type WorkQueue } from './work-queue.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'upload-queue-'));

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'verger', 'admin')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const picture = () =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: '#7c2d12' } })
    .jpeg()
    .toBuffer();
const send = (url: string, field: string, filename: string, type: string, data: Buffer) =>
  postFile(t.app, url, staff, { field, filename, type, data });
const sermon = () => {
  const file = path.join(work, 'sermon.mp3');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=3', '-b:a', '64k', file]);
  return readFileSync(file);
};

describe.each([
  ['/api/upload-image', 'image', 'photo.jpg', 'image/jpeg', picture, imageQueue],
  ['/api/upload-audio', 'audio', 'sermon.mp3', 'audio/mpeg', async () => sermon(), audioQueue],
])('%s under a burst', (url, field, filename, type, file, queue: WorkQueue) => {
  it('works on a few at once, lets a few wait, and answers the rest 503 with Retry-After at once', async () => {
    const data = await file();
    const upload = () => send(url, field, filename, type, data);
    // Other work holds every running place, as a long upload would.
    const holders = Array.from({ length: queue.atOnce }, () => queue.admit()!);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const holding = holders.map((place) => place.run(() => held));

    const waiting = Array.from({ length: queue.waiting }, upload);
    await vi.waitFor(() => expect(queue.admitted).toBe(queue.atOnce + queue.waiting));
    const refused = await Promise.all([upload(), upload()]);
    for (const res of refused) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({ message: UPLOADS_BUSY });
    }

    finish();
    await Promise.all(holding);
    for (const place of holders) place.leave();
    for (const res of await Promise.all(waiting)) expect(res.statusCode).toBe(201);
    expect(queue.admitted).toBe(0);
    expect((await upload()).statusCode).toBe(201);
  }, 60_000);
});

it('decodes one picture or sermon at a time: a picture waits while a sermon is decoded, and the other way round', async () => {
  const [photo, audio] = [await picture(), sermon()];
  // The sermons uploaded above are measured for the library in the same turns: let that finish first.
  await vi.waitFor(
    async () => {
      const list = await t.app.inject({ method: 'GET', url: '/api/library', headers: staff });
      expect(list.json().items.filter((item: { status: string }) => item.status === 'analysing')).toEqual([]);
    },
    { timeout: 30_000, interval: 200 },
  );
  for (const [holder, url, field, filename, type, data] of [
    [audioQueue, '/api/upload-image', 'image', 'photo.jpg', 'image/jpeg', photo],
    [imageQueue, '/api/upload-audio', 'audio', 'sermon.mp3', 'audio/mpeg', audio],
  ] as const) {
    // A sermon (or picture) being decoded holds the station's one turn.
    const place = holder.admit()!;
    let finish!: () => void;
    const holding = place.run(() => new Promise<void>((resolve) => (finish = resolve)));
    let answered = false;
    const res = send(url, field, filename, type, data).finally(() => (answered = true));
    await vi.waitFor(() => expect(heavyWork.waiting).toBe(1));
    expect(answered).toBe(false);
    finish();
    await holding;
    place.leave();
    expect((await res).statusCode).toBe(201);
  }
}, 60_000);

it('reads no upload body while a picture is re-encoded, and the upload goes on after it', async () => {
  const audio = sermon();
  let finish!: () => void;
  const encoding = bodiesHeld.during(() => new Promise<void>((resolve) => (finish = resolve)));
  let answered = false;
  const res = send('/api/upload-audio', 'audio', 'sermon.mp3', 'audio/mpeg', audio).finally(
    () => (answered = true),
  );
  // Had its body been read, the sermon would have been checked and answered by now: the turns are free.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(answered).toBe(false);
  expect(heavyWork.waiting).toBe(0);
  finish();
  await encoding;
  expect((await res).statusCode).toBe(201);
}, 60_000);
