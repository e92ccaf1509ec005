import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERIOD_REVERSED,
  PERIOD_TOO_LONG,
  UNKNOWN_FORMAT,
  type ListenerReport,
} from '../../../common/reports.js';
import { asRun, listenerSessions, mediaItems } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let presenter: { headers: Record<string, string>; id: string };
let other: Record<string, string>;

// Station time zone UTC (the test config's); 2026-03-02 is a Monday.
const at = (time: string) => new Date(`2026-03-02T${time}Z`);
const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  t = await createTestApp({ STATION_TIMEZONE: 'UTC' });
  admin = (await addStaff(t.db, 'manager', 'admin')).headers;
  presenter = await addStaff(t.db, 'pastor-dj', 'presenter');
  other = (await addStaff(t.db, 'other-dj', 'presenter')).headers;
  const [grace] = await t.db
    .insert(mediaItems)
    .values({
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      album: 'Hymns',
      label: 'Hope Records',
      isrc: 'USRC17607839',
      ccliSongNumber: '22025',
      composer: 'John Newton',
      kind: 'music',
      originalName: 'grace.mp3',
      path: 'media/grace.mp3',
      format: 'mp3',
      sizeBytes: 1,
    })
    .returning();
  const [untagged] = await t.db
    .insert(mediaItems)
    .values({
      title: 'Untagged Song',
      artist: 'Band',
      kind: 'music',
      originalName: 'u.mp3',
      path: 'media/u.mp3',
      format: 'mp3',
      sizeBytes: 1,
    })
    .returning();
  const play = (id: string, title: string, from: string, to: string, extra: object) => ({
    kind: 'library' as const,
    reason: 'rotation' as const,
    mediaId: id,
    title,
    startedAt: at(from),
    endedAt: at(to),
    ...extra,
  });
  await t.db.insert(asRun).values([
    play(grace!.id, 'Amazing Grace', '10:00:00', '10:04:00', {
      artist: 'Grace Choir',
      licenceClass: 'music',
      listenersPeak: 2,
      listenersAverage: 1.5,
      performances: 3,
    }),
    play(untagged!.id, 'Untagged Song', '10:04:00', '10:08:00', {
      artist: 'Band',
      licenceClass: 'music',
      listenersPeak: 1,
      listenersAverage: 1,
      performances: 1,
    }),
    // In the presenter's programme.
    play(grace!.id, 'Amazing Grace', '10:08:00', '10:12:00', {
      artist: 'Grace Choir',
      licenceClass: 'music',
      reason: 'schedule',
      programmeId: 'prog-1',
      programmeTitle: 'Morning Praise',
      presenterId: presenter.id,
      listenersPeak: 1,
      listenersAverage: 1,
      performances: 2,
    }),
    {
      kind: 'library' as const,
      reason: 'rotation' as const,
      title: 'Station ID',
      startedAt: at('10:12:00'),
      endedAt: at('10:12:10'),
      licenceClass: 'jingle' as const,
      performances: 1,
    },
  ]);
  // Two listeners: 10:00–10:10 (browser, 128) and 10:02–10:20 (VLC, 64).
  await t.db.insert(listenerSessions).values([
    { startedAt: at('10:00:00'), endedAt: at('10:10:00'), bitrate: 128, player: 'browser', via: 'direct' },
    { startedAt: at('10:02:00'), endedAt: at('10:20:00'), bitrate: 64, player: 'encoder', via: 'direct' },
  ]);
});
afterAll(async () => {
  await t.close();
});

const Q = 'from=2026-03-01&to=2026-03-31';

describe('bad input gets a clear 4xx', () => {
  it.each([
    ['/api/admin/reports/listeners?from=2026-03-31&to=2026-03-01', PERIOD_REVERSED],
    ['/api/admin/reports/listeners?from=2024-01-01&to=2026-03-01', PERIOD_TOO_LONG],
    ['/api/admin/reports/listeners?from=2026-02-30&to=2026-03-01', 'from must be a date'],
    ['/api/admin/reports/listeners?to=2026-03-01', 'from is required'],
    [`/api/admin/reports/licence?${Q}&format=prs`, UNKNOWN_FORMAT],
    [`/api/admin/reports/licence/check?${Q}`, UNKNOWN_FORMAT],
    [`/api/admin/reports/licence?${Q}&format=soundexchange&category=Z`, 'transmission category'],
    [`/api/admin/reports/licence?from=2025-01-01&to=2026-01-02&format=csv`, PERIOD_TOO_LONG],
  ])('%s', async (url, message) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(message);
  });

  it('answers any query with a 2xx or a 4xx, never a 5xx', async () => {
    const date = fc.oneof(
      fc.string(),
      fc
        .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
    await fc.assert(
      fc.asyncProperty(
        date,
        date,
        fc.oneof(fc.constantFrom('soundexchange', 'ccli', 'csv'), fc.string()),
        fc.constantFrom('licence', 'licence/check', 'listeners'),
        async (from, to, format, path) => {
          const query = new URLSearchParams({ from, to, format }).toString();
          const res = await get(`/api/admin/reports/${path}?${query}`);
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('who may see what', () => {
  it('asks for a sign-in', async () => {
    expect((await get(`/api/admin/reports/listeners?${Q}`, {})).statusCode).toBe(401);
    expect((await get(`/api/admin/reports/licence?${Q}&format=csv`, {})).statusCode).toBe(401);
  });

  it('shows a presenter only what aired in their own programmes', async () => {
    const own = await get(`/api/admin/reports/licence?${Q}&format=csv`, presenter.headers);
    expect(own.statusCode).toBe(200);
    const lines = own.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Morning Praise');
    const none = await get(`/api/admin/reports/licence?${Q}&format=csv`, other);
    expect(none.body.trim().split('\r\n')).toHaveLength(1);
    const report = (await get(`/api/admin/reports/listeners?${Q}`, presenter.headers)).json<ListenerReport>();
    expect(report.programmes.map((p) => p.programme)).toEqual(['Morning Praise']);
    // Only the programme's airtime, 10:08–10:12: two minutes of the first listener, four of the second.
    expect(report.listeningHours).toBeCloseTo(6 / 60, 2);
  });

  it('keeps the retention setting for superusers to change', async () => {
    expect((await get('/api/admin/reports/retention')).json()).toEqual({ days: 730 });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/reports/retention',
      headers: admin,
      payload: { days: 400 },
    });
    expect(put.statusCode).toBe(403);
    expect((await get('/api/admin/reports/retention', presenter.headers)).statusCode).toBe(403);
  });
});

describe('licence files', () => {
  it("writes SoundExchange's report of use: music only, actual total performances summed per recording", async () => {
    const res = await get(`/api/admin/reports/licence?${Q}&format=soundexchange&category=B`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('soundexchange-2026-03-01-to-2026-03-31.txt');
    const lines = res.body
      .trim()
      .split('\r\n')
      .map((l) => l.split('\t'));
    expect(lines[0]).toEqual([
      'NAME_OF_SERVICE',
      'TRANSMISSION_CATEGORY',
      'FEATURED_ARTIST',
      'SOUND_RECORDING_TITLE',
      'ISRC',
      'ALBUM_TITLE',
      'MARKETING_LABEL',
      'ACTUAL_TOTAL_PERFORMANCES',
    ]);
    const station = t.app.station().name;
    expect(lines.slice(1)).toEqual([
      [station, 'B', 'Grace Choir', 'Amazing Grace', 'USRC17607839', 'Hymns', 'Hope Records', '5'],
      [station, 'B', 'Band', 'Untagged Song', '', '', '', '1'],
    ]);
  });

  it('lists before the download what lacks what the format requires', async () => {
    const check = (await get(`/api/admin/reports/licence/check?${Q}&format=soundexchange`)).json();
    expect(check).toMatchObject({
      format: 'soundexchange',
      plays: 3,
      missing: [{ title: 'Untagged Song', plays: 1, missing: ['isrc_or_album_and_label'] }],
    });
    const ccli = (await get(`/api/admin/reports/licence/check?${Q}&format=ccli`)).json();
    expect(ccli).toMatchObject({
      plays: 2,
      missing: [{ title: 'Untagged Song', missing: ['ccli_song_number'] }],
    });
  });

  it('writes CCLI-style song usage: each numbered song and how often it aired', async () => {
    const res = await get(`/api/admin/reports/licence?${Q}&format=ccli`);
    expect(res.body.trim().split('\r\n')).toEqual([
      'CCLI Song Number,Song Title,Artist,Songwriters,Times Used,First Used,Last Used',
      '22025,Amazing Grace,Grace Choir,John Newton,2,2026-03-02 10:00:00,2026-03-02 10:08:00',
    ]);
  });

  it('writes the as-run log to the tenth of a second, in UTC and station time', async () => {
    const lines = (await get(`/api/admin/reports/licence?${Q}&format=csv`)).body.trim().split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toMatch(
      /^2026-03-02T10:12:00\.0Z,2026-03-02T10:12:10\.0Z,2026-03-02 10:12:00\.0,2026-03-02 10:12:10\.0,10,library,rotation,,Station ID,/,
    );
  });
});

describe('listener report', () => {
  it('measures peak, average, hours and shares from the sessions', async () => {
    const report = (
      await get('/api/admin/reports/listeners?from=2026-03-02&to=2026-03-02')
    ).json<ListenerReport>();
    expect(report).toMatchObject({ peak: 2, sessions: 2, bucketMinutes: 5 });
    expect(report.listeningHours).toBeCloseTo((10 + 18) / 60, 2);
    expect(report.average).toBeCloseTo(28 / 1440, 2);
    expect(report.bitrates).toEqual([
      { kbps: 64, sessions: 1, hours: 0.3 },
      { kbps: 128, sessions: 1, hours: 0.17 },
    ]);
    expect(report.players.map((p) => p.player)).toEqual(['encoder', 'browser']);
    expect(report.countries).toBeNull();
    expect(report.sessionLengths.find((l) => l.label === '15 to 30 minutes')!.sessions).toBe(1);
    const tenOClock = report.overTime.find((p) => p.at === '2026-03-02T10:00:00.000Z')!;
    expect(tenOClock).toEqual({ at: '2026-03-02T10:00:00.000Z', average: 1.6, peak: 2 });
    expect(report.programmes[0]).toMatchObject({ programme: 'No programme (rotation)', peak: 2 });
  });
});
