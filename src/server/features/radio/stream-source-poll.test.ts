import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { NowPlaying } from '../../../common/radio.js';
import type { AirEvent } from '../../radio/engine.js';
import { makeTone, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { waitFor } from '../../test/icecast-server.js';
import { addStaff } from '../../test/staff.js';
import { startStationElsewhere, type StationElsewhere } from '../../test/station-elsewhere.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let elsewhere: StationElsewhere;
const events: AirEvent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  superuser = await addStaff(t.db, 'warden', 'superuser');
  // An Icecast elsewhere on `localhost`, a name: the station resolves it when it checks, and again at each
  // connection to its stream and each poll of its status.
  elsewhere = await startStationElsewhere('localhost');
  elsewhere.mount('/live', {
    file: await makeTone(join(await tempAudioDir(), 'psalm.mp3'), { seconds: 5, frequency: 880 }),
    format: 'mp3',
    contentType: 'audio/mpeg',
    title: 'Choir - Psalm 23',
  });
  t.app.radio.onEvent((event) => events.push(event));
}, 60_000);
afterAll(async () => {
  await t.close();
  await elsewhere.close();
});

const title = () => t.app.nowPlaying.nowPlaying().current_track.title;
const untilTitle = (check: (title: string) => boolean, what: string) =>
  waitFor(what, () => (check(title()) ? true : undefined), 30_000);

it("fetches the saved source's stream and status the way its address was checked: a name now on a private address is not connected to once the setting refuses it", async () => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/stream-source',
    headers: superuser.headers,
    payload: { streamSource: `icecast:${elsewhere.origin}/live`, allowPrivateNetwork: true },
  });
  expect(res.statusCode).toBe(200);
  // The save asked for its stream once, to see that it plays.
  expect(elsewhere.requests).toEqual(['/live']);
  // Allowed: the engine connects to its stream, and its status names what is relayed.
  await t.app.nowPlaying.start();
  await untilTitle((now) => now === 'Psalm 23', 'the station elsewhere on air');
  expect(t.app.nowPlaying.nowPlaying()).toMatchObject<Partial<NowPlaying>>({
    current_track: expect.objectContaining({ artist: 'Choir' }),
    is_live: true,
  });
  expect(elsewhere.requests).toEqual(['/live', '/live']);
  expect(elsewhere.statusAsked).toBeGreaterThan(0);

  // The name stands for an address the check refuses now (as after a DNS change, or the setting turned off),
  // and the stream drops: connecting again is refused before any connection, and the AutoDJ covers.
  await saveAllowPrivateNetworkSource(t.db, false);
  elsewhere.down();
  elsewhere.up();
  await untilTitle((now) => now !== 'Psalm 23', 'the AutoDJ covering');
  expect(events).toContainEqual(expect.objectContaining({ type: 'source_failed' }));
  // It tries again after 1 s, then 2 s: refused each time before it connects.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  expect(elsewhere.requests).toEqual(['/live', '/live']);

  // Allowed again: connected again at its next try, and on air.
  await saveAllowPrivateNetworkSource(t.db, true);
  await untilTitle((now) => now === 'Psalm 23', 'the station elsewhere back on air');
  expect(elsewhere.requests).toEqual(['/live', '/live', '/live']);
}, 90_000);
