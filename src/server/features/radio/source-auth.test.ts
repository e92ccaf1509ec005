import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.js';
import { inMemoryPresenterSchedule } from '../../test/presenter-schedule.js';
import { createAdminUser } from '../accounts/service.js';
import { presenterBySourcePassword, rotateSourcePassword } from '../presenters/service.js';
import { sourceAuthoriser } from './source-auth.js';

const database = await createTestDatabase();
afterAll(() => database.close());

const STATION_PASSWORD = 'station-override';
const START = new Date('2026-11-29T10:00:00Z');
const END = new Date('2026-11-29T11:30:00Z');
const MINUTE = 60_000;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const schedule = inMemoryPresenterSchedule();
const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
let now = START;
const authorise = sourceAuthoriser({
  stationPassword: async () => STATION_PASSWORD,
  presenter: (username, password) => presenterBySourcePassword(database.db, username, password),
  schedule,
  timeZone: () => 'Europe/London',
  log: {
    warn: (details, message) =>
      logged.push({ level: 'warn', details: details as Record<string, unknown>, message }),
    info: (details, message) =>
      logged.push({ level: 'info', details: details as Record<string, unknown>, message }),
  },
  now: () => now,
});

let ruth: { id: string; password: string };
let james: { id: string; password: string };
beforeAll(async () => {
  for (const [name, set] of [
    ['pastor-ruth', (v: typeof ruth) => (ruth = v)],
    ['brother-james', (v: typeof james) => (james = v)],
  ] as const) {
    const user = await createAdminUser(database.db, {
      username: name,
      password: 'psalm-23-shepherd',
      role: 'presenter',
    });
    set({ id: user.id, password: await rotateSourcePassword(database.db, user.id) });
  }
  schedule.programmes.push({
    presenterId: ruth.id,
    programmeTitle: 'Sunday Service',
    startsAt: START,
    endsAt: END,
  });
});

describe('who may send live audio, and when', () => {
  it.each([
    ['a day before', -24 * 60, 403],
    ['6 minutes before', -6, 403],
    ['1 ms before the window opens', -5 - 1 / MINUTE, 403],
    ['5 minutes before (the window opens)', -5, 'presenter'],
    ['at the start', 0, 'presenter'],
    ['half way', 45, 'presenter'],
    ['1 ms before the end', 90 - 1 / MINUTE, 'presenter'],
    ['at the end', 90, 403],
    ['an hour after', 150, 403],
  ] as const)("the presenter's own password %s: %s", async (_when, minutes, expected) => {
    now = new Date(START.getTime() + minutes * MINUTE);
    const answer = await authorise(basic('pastor-ruth', ruth.password), '203.0.113.9');
    if (expected === 'presenter') {
      expect(answer).toEqual({
        ok: true,
        owner: {
          kind: 'presenter',
          presenterId: ruth.id,
          username: 'pastor-ruth',
          programmeTitle: 'Sunday Service',
          opensAt: new Date(START.getTime() - 5 * MINUTE),
          startsAt: START,
          endsAt: END,
        },
      });
    } else {
      expect(answer).toMatchObject({ ok: false, status: 403 });
    }
    // The station's password works at every one of these moments.
    expect(await authorise(basic('source', STATION_PASSWORD))).toEqual({
      ok: true,
      owner: { kind: 'station' },
    });
  });

  it('tells a presenter who comes early when their encoder is let in, in the station time zone, and logs why', async () => {
    now = new Date(START.getTime() - 60 * MINUTE);
    logged.length = 0;
    const answer = await authorise(basic('pastor-ruth', ruth.password), '203.0.113.9');
    expect(answer).toEqual({
      ok: false,
      status: 403,
      message: 'Not your slot now: your encoder is let in from Sun 29 Nov, 09:55 for "Sunday Service"',
    });
    expect(logged).toEqual([
      {
        level: 'warn',
        message: 'live source refused: presenter outside their programme',
        details: {
          presenter: 'pastor-ruth',
          presenterId: ruth.id,
          remote: '203.0.113.9',
          at: now.toISOString(),
          reason: answer.ok ? '' : answer.message,
        },
      },
    ]);
  });

  it('tells a presenter with nothing scheduled so', async () => {
    now = START;
    expect(await authorise(basic('brother-james', james.password))).toEqual({
      ok: false,
      status: 403,
      message: 'Not your slot now: no programme of yours is on the schedule',
    });
  });

  it('never lets a schedule open a window more than 5 minutes early', async () => {
    const early = inMemoryPresenterSchedule();
    const lax = sourceAuthoriser({
      stationPassword: async () => STATION_PASSWORD,
      presenter: (username, password) => presenterBySourcePassword(database.db, username, password),
      schedule: {
        window: () => ({
          programmeTitle: 'Sunday Service',
          opensAt: new Date(0),
          startsAt: START,
          endsAt: END,
        }),
        upcoming: early.upcoming,
      },
      timeZone: () => 'UTC',
      log: { warn: () => {}, info: () => {} },
      now: () => new Date(START.getTime() - 6 * MINUTE),
    });
    expect(await lax(basic('pastor-ruth', ruth.password))).toMatchObject({ ok: false, status: 403 });
  });

  it.each([
    ['no header', undefined],
    ['a bearer token', 'Bearer abc'],
    ['the station password under another name', basic('pastor-ruth', STATION_PASSWORD)],
    ['the station password under admin', basic('admin', STATION_PASSWORD)],
    ["one presenter's name with another's password", basic('brother-james', 'x')],
    ['a wrong station password', basic('source', 'station-overrid')],
    ['an empty password', basic('source', '')],
    ['a name nobody has', basic('nobody', 'whatever')],
  ])('refuses %s with 401', async (_case, header) => {
    now = START;
    const cross = header === basic('brother-james', 'x') ? basic('brother-james', ruth.password) : header;
    expect(await authorise(cross)).toEqual({ ok: false, status: 401, message: 'Authentication required' });
  });
});
