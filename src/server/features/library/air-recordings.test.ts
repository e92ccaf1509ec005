import { spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../../common/library.js';
import { UPCOMING_PATH } from '../../../common/programs.js';
import { analyseAudio } from '../../radio/analysis.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';
import { startHttpReceiver } from '../../test/http-receiver.js';
import { saveNotificationTargets } from '../../test/notification-targets.js';
import { waitFor } from '../../test/icecast-server.js';
import { addStaff } from '../../test/staff.js';

/**
 * A live programme from a real encoder (ffmpeg over icecast://, quiet speech-level tone between two seconds of
 * silence either side) is recorded from the air, and lands in the library as a sermon draft cut to its sound
 * and levelled to the station's target; one click publishes it as a featured sermon and podcast episode.
 */
const PASSWORD = 'live-recording-pw';
let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;
let dataDir: string;
let staff: Record<string, string>;
let presenter: Record<string, string>;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;

beforeAll(async () => {
  dataDir = await tempAudioDir();
  await mkdir(join(dataDir, 'media'));
  await makeMp3(join(dataDir, 'media', 'rotation.mp3'), { seconds: 3 });
  t = await createTestApp({ DATA_DIR: dataDir, SOURCE_PASSWORD: PASSWORD });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
  staff = (await addStaff(t.db, 'deacon-sam', 'superuser')).headers;
  presenter = (await addStaff(t.db, 'pastor-ruth', 'presenter')).headers;
  receiver = await startHttpReceiver();
  // The webhook receiver is on 127.0.0.1: only a station that allows a private network may send to it.
  await saveAllowPrivateNetworkSource(t.db, true);
  await saveNotificationTargets(t.app, staff, {
    webhook: {
      enabled: true,
      events: ['recording_published'],
      url: `${receiver.url}/hook`,
      secret: 's3cret',
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** An encoder sending 2 s of silence, `seconds` of a tone at −30 dBFS, and 2 s of silence, in real time. */
function encoder(seconds: number) {
  const child = spawn('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi'],
    ...['-i', `sine=frequency=330:duration=${seconds},volume=-27dB,adelay=2000:all=1,apad=pad_dur=2`],
    ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-content_type', 'audio/mpeg'],
    ...['-ice_name', 'Evening Prayer', '-f', 'mp3', `icecast://source:${PASSWORD}@127.0.0.1:${port}/stream`],
  ]);
  return new Promise<number | null>((resolve) => child.on('close', resolve));
}

const library = async (): Promise<MediaItem[]> =>
  (await t.app.inject({ url: '/api/library?kind=sermon', headers: staff })).json().items;

describe('a live programme recorded from the air', () => {
  let draft: MediaItem;

  it('is a sermon draft in the library once off the air, cut to its sound and levelled to the target', async () => {
    expect(await encoder(8)).toBe(0);
    draft = await waitFor(
      'the recording to be measured in the library',
      async () => (await library()).find((item) => item.draft && item.status === 'ready'),
      90_000,
    );
    expect(draft).toMatchObject({
      kind: 'sermon',
      draft: true,
      format: 'mp3',
      // Who was on the air: the encoder's name, with no programme scheduled (the station's own password).
      artist: 'Evening Prayer',
    });
    expect(draft.title).toMatch(/^Evening Prayer \(\d{1,2} \w+ \d{4}\)$/);
    // Two seconds of silence either side are gone; the tone is all there.
    expect(draft.duration_seconds).toBeGreaterThan(7.3);
    expect(draft.duration_seconds).toBeLessThan(8.7);
    // The encoder sent it at about −33 LUFS; the draft is at the station's −16.
    expect(Math.abs(draft.loudness_lufs! - -16)).toBeLessThanOrEqual(1);
    expect(draft.true_peak_dbtp!).toBeLessThanOrEqual(-1);
    const measured = await analyseAudio(join(dataDir, 'media', `${draft.id}.mp3`));
    expect(measured.cueInSeconds).toBeLessThan(0.3);
    // The raw recording and its notes are gone once the draft is made.
    expect((await readdir(join(dataDir, 'media'))).filter((name) => name.startsWith('.live-'))).toEqual([]);
  }, 150_000);

  it('does not air while a draft', async () => {
    const upcoming = await t.app.inject({ url: `${UPCOMING_PATH}?hours=1`, headers: staff });
    expect(upcoming.statusCode, upcoming.body).toBe(200);
    expect(upcoming.body).not.toContain(draft.id);
  });

  it('refuses bad publish requests with a clear 4xx and keeps the draft', async () => {
    const publish = (id: string, payload?: unknown, headers = staff) =>
      t.app.inject({
        method: 'POST',
        url: `/api/library/${id}/publish`,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        payload: payload === undefined ? undefined : JSON.stringify(payload),
      });
    expect((await publish(draft.id, undefined, {})).statusCode).toBe(401);
    expect((await publish(draft.id, undefined, presenter)).statusCode).toBe(403);
    expect((await publish('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ title: fc.oneof(fc.constant(''), fc.constant(' '), fc.string({ minLength: 201 })) }),
          fc.record({ description: fc.oneof(fc.integer(), fc.string({ minLength: 2001 })) }),
          fc.record({ extra: fc.string() }),
          fc.constant('not an object'),
        ),
        async (body) => {
          const res = await publish(draft.id, body);
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().message).toEqual(expect.any(String));
        },
      ),
      { numRuns: 30 },
    );
    expect((await library()).find((item) => item.id === draft.id)).toMatchObject({ draft: true });
    expect((await t.app.inject({ url: `/media/${draft.id}` })).statusCode).toBe(404);
  });

  it('is published in one click as a featured sermon and podcast episode, and staff are told', async () => {
    const told = receiver.next();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/library/${draft.id}/publish`,
      headers: staff,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { item, featured } = res.json();
    expect(item).toMatchObject({ id: draft.id, draft: false });
    expect(featured).toMatchObject({ title: draft.title, audioUrl: `/media/${draft.id}` });

    const list = (await t.app.inject({ url: '/api/featured-content' })).json();
    expect(list).toContainEqual(
      expect.objectContaining({ type: 'sermon', title: draft.title, audioUrl: `/media/${draft.id}` }),
    );
    const podcast = await t.app.inject({ url: '/podcast.xml' });
    expect(podcast.body).toContain(`/media/${draft.id}`);
    const audio = await t.app.inject({ url: `/media/${draft.id}` });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');

    const hook = JSON.parse((await told).body);
    expect(JSON.stringify(hook)).toContain(draft.title);

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/library/${draft.id}/publish`,
      headers: staff,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `This recording is already published as the featured sermon '${draft.title}'.`,
    );
  });
});
