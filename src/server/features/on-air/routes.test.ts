import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaScheduled, type MediaItem } from '../../../common/library.js';
import { oneOffBodySchema, UPCOMING_PATH, type Upcoming } from '../../../common/programs.js';
import { createTestApp } from '../../test/helpers.js';
import { toneFile, uploadMedia, whenMeasured } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';
import { createOneOff, stationClock } from '../programs/service.js';
import { OnAir } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let item: MediaItem;
const work = mkdtempSync(path.join(os.tmpdir(), 'on-air-'));

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'on-air-data-')) });
  staff = (await addStaff(t.db, 'scheduler', 'admin')).headers;
  const res = await uploadMedia(
    t.app,
    staff,
    await toneFile(work, 'devotion.wav', { seconds: 20 }),
    'devotion.wav',
  );
  expect(res.statusCode, res.body).toBe(201);
  item = await whenMeasured(t.app, staff, res.json<MediaItem>().id);
  expect(item.status).toBe('ready');
}, 60_000);
afterAll(() => t?.close());

/** A one-off special `minutesAhead` from now (on the minute), airing `airs`, in the station's time zone. */
function specialBody(minutesAhead: number, airs: unknown, title = 'Evening Devotion') {
  return specialBodyAt(
    new Date(Math.ceil(Date.now() / 60_000) * 60_000 + minutesAhead * 60_000),
    airs,
    title,
  );
}

/** A one-off special starting at `start` (on a minute), airing `airs`, in the station's time zone. */
function specialBodyAt(start: Date, airs: unknown, title: string) {
  const { date, minute } = stationClock(start, t.app.station().timeZone);
  const startTime = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  return { start, body: { kind: 'add', date, title, startTime, duration: 10, airs, confirmOverlap: true } };
}

/** The special above, saved as the Schedule tab saves it. */
function specialIn(minutesAhead: number, airs: unknown, title?: string) {
  const { start, body } = specialBody(minutesAhead, airs, title);
  return {
    start,
    res: t.app.inject({ method: 'POST', url: '/api/programs/one-offs', headers: staff, payload: body }),
  };
}

describe('the next hours as they will air', () => {
  it('places a programme’s recording on its minute, and keeps the recording from being deleted', async () => {
    const { start, res } = specialIn(30, { kind: 'recording', mediaId: item.id });
    const saved = await res;
    expect(saved.statusCode, saved.body).toBe(201);
    const upcoming = await t.app.inject({ url: `${UPCOMING_PATH}?hours=2`, headers: staff });
    expect(upcoming.statusCode, upcoming.body).toBe(200);
    const { entries } = upcoming.json<Upcoming>();
    const recording = entries.find((e) => e.mediaId === item.id && e.programme !== null);
    expect(recording).toMatchObject({
      at: start.toISOString(),
      kind: 'item',
      programme: { title: 'Evening Devotion' },
    });
    // No holes: each entry starts where the one before ends.
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.at).toBe(entries[i - 1]!.until);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: staff });
    expect(removed.statusCode).toBe(409);
    expect(removed.json()).toEqual({
      message: mediaScheduled(`Evening Devotion (${stationClock(start, t.app.station().timeZone).date})`),
    });
  });

  it('refuses a programme that airs a recording not in the library, storing nothing', async () => {
    const before = await t.app.inject({ url: '/api/programs/one-offs', headers: staff });
    const refused = await specialIn(90, { kind: 'recording', mediaId: 'no-such-item' }, 'Ghost').res;
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'That recording is not in the library' });
    const after = await t.app.inject({ url: '/api/programs/one-offs', headers: staff });
    expect(after.json(), `${before.body}\n${after.body}`).toEqual(before.json());
  });

  it('answers bad what-airs and hours with a clear 400, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ kind: fc.string() }),
          fc.record({ kind: fc.constant('playlist'), playlistId: fc.oneof(fc.constant(''), fc.integer()) }),
          fc.record({ kind: fc.constant('newest'), mediaKind: fc.string() }),
          fc.record({ kind: fc.constant('recording'), mediaId: fc.constant(item.id), overrun: fc.string() }),
          fc.record({ kind: fc.constant('rotation'), start: fc.string() }),
          // Left out, what airs is the rotation (a valid default): anything else that is there.
          fc.anything().filter((airs) => airs !== undefined),
        ),
        async (airs) => {
          const { res } = specialIn(120, airs, 'Fuzz');
          const answer = await res;
          expect(answer.statusCode, answer.body).toBe(400);
          expect(answer.json<{ message: string }>().message).toEqual(expect.any(String));
        },
      ),
      { numRuns: 40 },
    );
    for (const hours of ['0', '49', 'abc', '1.5', '-3'])
      expect(
        (await t.app.inject({ url: `${UPCOMING_PATH}?hours=${hours}`, headers: staff })).statusCode,
      ).toBe(400);
  });

  it('is for staff only', async () => {
    expect((await t.app.inject({ url: UPCOMING_PATH })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: UPCOMING_PATH, headers: { authorization: 'Bearer nope' } })).statusCode,
    ).toBe(401);
  });
});

describe('the schedule as the engine and the 24-hour preview read it', () => {
  it('keeps what it read for a minute, and hears a save in the Schedule tab at once', async () => {
    let now = Date.now();
    const onAir = new OnAir({
      db: t.db,
      timeZone: () => t.app.station().timeZone,
      library: async () => [],
      rotation: { initial: null, pick: async () => null },
      exists: { media: async () => true, playlist: async () => true },
      now: () => now,
    });
    const unfollow = onAir.followSaves(t.app.bus);
    const titleAt = async (at: Date) => (await onAir.slotAt(at.getTime() + 1000))?.programme.title;
    const inPreview = async (title: string) =>
      (await onAir.upcoming(24)).entries.some((entry) => entry.programme?.title === title);

    const saved = specialIn(180, { kind: 'recording', mediaId: item.id }, 'Saved in the tab');
    expect(await titleAt(saved.start)).toBeUndefined();
    expect(await inPreview('Saved in the tab')).toBe(false);
    expect((await saved.res).statusCode).toBe(201);
    expect(await titleAt(saved.start)).toBe('Saved in the tab');
    expect(await inPreview('Saved in the tab')).toBe(true);

    // A change that reaches the database some other way (the demo seed, another process) waits its minute. It is
    // on the same station day as the first (20 minutes after it, or before it near midnight), whose slots were
    // just read: another day's are read when first asked for, whatever the time the test runs.
    const dayOf = (at: Date) => stationClock(at, t.app.station().timeZone).date;
    const after = new Date(saved.start.getTime() + 20 * 60_000);
    const { start, body } = specialBodyAt(
      dayOf(after) === dayOf(saved.start) ? after : new Date(saved.start.getTime() - 20 * 60_000),
      { kind: 'recording', mediaId: item.id },
      'Written elsewhere',
    );
    const written = await createOneOff(t.db, oneOffBodySchema.parse(body), t.app.station().timeZone);
    expect(written.ok).toBe(true);
    expect(await titleAt(start)).toBeUndefined();
    expect(await inPreview('Written elsewhere')).toBe(false);
    now += 61_000;
    expect(await titleAt(start)).toBe('Written elsewhere');
    expect(await inPreview('Written elsewhere')).toBe(true);
    unfollow();
  });
});
