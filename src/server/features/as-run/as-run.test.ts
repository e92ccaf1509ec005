import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asRun, listenerSessions } from '../../db/schema.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { settledLibrary } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let base: string;
const ITEM_SECONDS = 4;

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  for (const [name, isrc, frequency] of [
    ['a.mp3', 'USRC17600001', 440],
    ['b.mp3', 'USRC17600002', 660],
  ] as const)
    await makeMp3(join(dir, 'media', name), {
      seconds: ITEM_SECONDS,
      frequency,
      extra: ['-metadata', `title=Song ${name[0]}`, '-metadata', 'artist=Choir', '-metadata', `TSRC=${isrc}`],
    });
  t = await createTestApp({ DATA_DIR: dir });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await settledLibrary(t.app, (await addStaff(t.db, 'sexton', 'admin')).headers, 2);
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A listener on /stream for as long as the test keeps it. */
function listen(userAgent: string) {
  const req = http.get(`${base}/stream`, { headers: { 'User-Agent': userAgent } }, (res) => res.resume());
  req.on('error', () => undefined);
  return () => req.destroy();
}

const rows = () => t.db.select().from(asRun).orderBy(asc(asRun.startedAt));

async function until(check: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('logs each item as it airs, back to back, with its tags and its listeners by one counting rule', async () => {
  const joined = Date.now();
  const leaveLong = listen('Mozilla/5.0 (X11; Linux x86_64) Chrome/120');
  // A second's connection (a preload, a probe) is no listener.
  const leaveShort = listen('VLC/3.0.20 LibVLC/3.0.20');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  leaveShort();
  // Long enough to count as a listener, over several whole items.
  await until(async () => Date.now() - joined > 15_000 && (await rows()).length >= 4, 40_000);
  leaveLong();
  const left = Date.now();
  await t.app.nowPlaying.stop();
  await t.app.asRunRecorder!.stop();
  await t.app.listenerSessions.closeAll();

  const log = await rows();
  expect(log.length).toBeGreaterThanOrEqual(4);
  for (const row of log) {
    expect(row).toMatchObject({
      kind: 'library',
      reason: 'rotation',
      artist: 'Choir',
      licenceClass: 'music',
    });
    expect(row.isrc).toBe(row.title === 'Song a' ? 'USRC17600001' : 'USRC17600002');
    expect(row.endedAt).not.toBeNull();
  }
  // One row ends where the next begins: nothing aired goes unlogged.
  for (let i = 1; i < log.length; i++) expect(log[i]!.startedAt).toEqual(log[i - 1]!.endedAt);
  // Whole items played between the first and last row last about as long as the file (a crossfade aside).
  for (const row of log.slice(1, -1)) {
    const seconds = (row.endedAt!.getTime() - row.startedAt.getTime()) / 1000;
    expect(seconds).toBeGreaterThan(ITEM_SECONDS - 2);
    expect(seconds).toBeLessThan(ITEM_SECONDS + 1);
  }

  const sessions = await t.db.select().from(listenerSessions);
  expect(sessions).toHaveLength(1);
  expect(sessions[0]).toMatchObject({ player: 'browser', via: 'direct', bitrate: 128 });
  expect(Math.abs(sessions[0]!.startedAt.getTime() - joined)).toBeLessThan(1000);
  expect(Math.abs(sessions[0]!.endedAt.getTime() - left)).toBeLessThan(1000);

  // Items wholly inside the listener's session had one listener throughout; one SoundExchange performance each.
  const inside = log.filter(
    (row) => row.startedAt >= sessions[0]!.startedAt && row.endedAt! <= sessions[0]!.endedAt,
  );
  expect(inside.length).toBeGreaterThanOrEqual(2);
  for (const row of inside)
    expect(row).toMatchObject({ listenersPeak: 1, listenersAverage: 1, performances: 1 });
}, 90_000);
