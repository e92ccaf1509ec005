import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, dayOfDate, programSchema, type ScheduledProgram } from '../../../common/programs.js';
import { programOverrides, programs } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff, openSession } from '../../test/staff.js';
import { stationClock } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ STATION_TIMEZONE: 'Africa/Lagos' });
  staff = (await addStaff(t.db, 'scheduler', 'admin')).headers;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(programOverrides);
  await t.db.delete(programs);
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, headers = staff) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const MIDDAY = {
  title: 'Midday Word',
  speaker: 'Pastor James',
  ministryFocus: 'Teaching',
  description: 'Bible teaching.',
  startTime: '12:00',
  duration: 60,
  dayOfWeek: 'monday',
};
const add = async (body: Record<string, unknown> = {}) => {
  const res = await call('POST', '/api/programs', { ...MIDDAY, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ScheduledProgram;
};
const week = async () => (await call('GET', '/api/programs')).json().programs as ScheduledProgram[];

/** Every row of both schedule tables, to show a refused write stored nothing. */
const stored = async () =>
  JSON.stringify([
    await t.db.select().from(programs).orderBy(programs.id),
    await t.db.select().from(programOverrides).orderBy(programOverrides.id),
  ]);

/** A date from a week on that falls on `day`, so it is never in the past. */
const nextDateOn = (day: string) => {
  let date = addDays(stationClock(new Date(), 'Africa/Lagos').date, 7);
  while (dayOfDate(date) !== day) date = addDays(date, 1);
  return date;
};

describe('authorization', () => {
  it('answers 401 to every schedule call without a token, with a bad token, or with a revoked one', async () => {
    const revoked = await openSession(t.db, (await addStaff(t.db, 'leaver', 'admin')).id);
    expect((await call('POST', '/api/admin/logout', undefined, revoked)).statusCode).toBe(200);
    const program = await add();
    const before = await stored();
    const calls: [Method, string, unknown][] = [
      ['GET', '/api/programs', undefined],
      ['POST', '/api/programs', MIDDAY],
      ['PATCH', `/api/programs/${program.id}`, { isActive: false }],
      ['POST', '/api/programs/check', MIDDAY],
      ['POST', `/api/programs/${program.id}/check`, { startTime: '06:00' }],
      ['POST', '/api/programs/one-offs/check', { kind: 'add', date: nextDateOn('monday'), ...MIDDAY }],
      ['DELETE', `/api/programs/${program.id}`, undefined],
      ['GET', '/api/programs/one-offs', undefined],
      [
        'POST',
        '/api/programs/one-offs',
        { kind: 'cancel', date: nextDateOn('monday'), programId: program.id },
      ],
      ['DELETE', '/api/programs/one-offs/some-id', undefined],
    ];
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, revoked]) {
      for (const [method, url, payload] of calls) {
        const res = await call(method, url, payload, headers);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().message).toMatch(/sign in/i);
      }
    }
    expect(await stored()).toBe(before);
  });

  it("leaves 'Today's Programs' open to everyone", async () => {
    expect((await t.app.inject({ url: '/api/programs/today' })).statusCode).toBe(200);
  });
});

describe('weekly programmes', () => {
  it('adds, lists by day, edits, deactivates, activates and deletes', async () => {
    const sunday = await add({ dayOfWeek: 'sunday', startTime: '10:00', title: 'Sunday Service' });
    const created = await add({ ministryFocus: '  ', description: '' });
    expect(created).toMatchObject({ ...MIDDAY, ministryFocus: null, description: null, isActive: true });
    await add({ startTime: '06:00', title: 'Morning Praise' });
    expect((await week()).map((p) => p.title)).toEqual(['Sunday Service', 'Morning Praise', 'Midday Word']);

    const edited = await call('PATCH', `/api/programs/${created.id}`, {
      title: 'Midday Bible Hour',
      ministryFocus: 'Youth',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      title: 'Midday Bible Hour',
      ministryFocus: 'Youth',
      speaker: MIDDAY.speaker,
    });

    const afterSong = { kind: 'rotation', start: 'after_current', fillPlaylistId: null };
    await call('PATCH', `/api/programs/${created.id}`, { airs: afterSong });
    const off = await call('PATCH', `/api/programs/${created.id}`, { isActive: false });
    // Switched off, it keeps what it airs (the patch's missing airs is not the default rotation).
    expect(off.json()).toMatchObject({ isActive: false, airs: afterSong });
    const listing = await call('GET', '/api/programs');
    expect(listing.json()).toMatchObject({
      timeZone: 'Africa/Lagos',
      today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(listing.json().programs.find((p: ScheduledProgram) => p.id === created.id).isActive).toBe(false);
    expect((await call('PATCH', `/api/programs/${created.id}`, { isActive: true })).json().isActive).toBe(
      true,
    );

    expect((await call('DELETE', `/api/programs/${sunday.id}`)).statusCode).toBe(204);
    const again = await call('DELETE', `/api/programs/${sunday.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Programme not found' });
    expect((await call('PATCH', `/api/programs/${sunday.id}`, { title: 'x' })).statusCode).toBe(404);
  });

  it.each([
    ['no title', { title: undefined }, 'Title is required'],
    ['a blank title', { title: '   ' }, 'Title is required'],
    ['a title over 200 characters', { title: 't'.repeat(201) }, 'Title must be at most 200 characters'],
    ['a speaker over 200 characters', { speaker: 's'.repeat(201) }, 'Speaker must be at most 200 characters'],
    ['a number as speaker', { speaker: 7 }, 'Speaker must be text'],
    ['a ministry focus over 100', { ministryFocus: 'm'.repeat(101) }, 'Ministry focus must be at most 100'],
    ['a description over 2,000', { description: 'd'.repeat(2001) }, 'Description must be at most 2,000'],
    ['a NUL in the title', { title: 'Hymns\u0000' }, 'cannot be stored'],
    ['a lone surrogate in the description', { description: 'x\ud800' }, 'unpaired surrogate'],
    ['24:00', { startTime: '24:00' }, 'Start time must be HH:MM, from 00:00 to 23:59'],
    ['9:00', { startTime: '9:00' }, 'Start time must be HH:MM'],
    ['12:60', { startTime: '12:60' }, 'Start time must be HH:MM'],
    ['no start time', { startTime: undefined }, 'Start time must be HH:MM'],
    ['a duration of 0', { duration: 0 }, 'Duration must be a whole number of minutes from 1 to 1440'],
    ['a duration of 1441', { duration: 1441 }, 'from 1 to 1440'],
    ['a fractional duration', { duration: 30.5 }, 'whole number of minutes'],
    ['a duration as text', { duration: '60' }, 'Duration must be'],
    ['an unknown day', { dayOfWeek: 'funday' }, 'Day must be one of sunday, monday'],
    ['a capitalised day', { dayOfWeek: 'Monday' }, 'Day must be one of'],
    ['isActive as text', { isActive: 'true' }, 'isActive must be true or false'],
    ['confirmOverlap as text', { confirmOverlap: 'yes' }, 'confirmOverlap must be true or false'],
  ])('refuses %s with a clear 400 and stores nothing', async (_case, change, message) => {
    const before = await stored();
    const res = await call('POST', '/api/programs', { ...MIDDAY, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await stored()).toBe(before);
  });

  it("takes a programme without a speaker; 'Today's Programs' then leaves the station name to the page", async () => {
    const today = dayOfDate(stationClock(new Date(), 'Africa/Lagos').date);
    const created = await add({ speaker: undefined, dayOfWeek: today, startTime: '00:00', duration: 1440 });
    expect(created.speaker).toBeNull();
    // Another day than today's, which the first one fills from midnight to midnight.
    const other = today === 'friday' ? 'saturday' : 'friday';
    const blank = await add({ speaker: '   ', dayOfWeek: other, title: 'Weekly Word' });
    expect(blank.speaker).toBeNull();
    expect(
      (await call('PATCH', `/api/programs/${blank.id}`, { speaker: 'Pastor Ruth' })).json().speaker,
    ).toBe('Pastor Ruth');
    expect((await call('PATCH', `/api/programs/${blank.id}`, { speaker: '' })).json().speaker).toBeNull();

    const list = (await t.app.inject({ url: '/api/programs/today' })).json();
    expect(list).toHaveLength(1);
    const listed = programSchema.strict().parse(list[0]);
    expect(listed).toMatchObject({ title: MIDDAY.title, isLive: true });
    expect(listed).not.toHaveProperty('speaker');
  });

  it.each([
    ['a blank title', { title: ' ' }, 'Title is required'],
    ['a bad start', { startTime: '7pm' }, 'Start time must be HH:MM'],
    ['a day that is not one', { dayOfWeek: 3 }, 'Day must be one of'],
  ])('refuses an edit with %s and changes nothing', async (_case, change, message) => {
    const program = await add();
    const before = await stored();
    const res = await call('PATCH', `/api/programs/${program.id}`, change);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await stored()).toBe(before);
  });

  it.each(['%00', 'a%20b', 'a.b'])('refuses the id %s with a 400', async (id) => {
    expect((await call('PATCH', `/api/programs/${id}`, { title: 'x' })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/programs/${id}`)).statusCode).toBe(400);
    expect((await call('DELETE', `/api/programs/one-offs/${id}`)).statusCode).toBe(400);
  });
});

describe('overlaps', () => {
  it('refuses an overlapping programme with a 409 naming the other, until confirmed; the week flags both', async () => {
    const first = await add();
    const before = await stored();
    const refused = await call('POST', '/api/programs', {
      ...MIDDAY,
      title: 'Lunch Hymns',
      startTime: '12:30',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This overlaps "Midday Word" (Monday 12:00–13:00). Confirm the overlap to save it anyway.',
    );
    expect(await stored()).toBe(before);

    const second = await add({ title: 'Lunch Hymns', startTime: '12:30', confirmOverlap: true });
    expect(second.overlapsWith).toEqual([first.id]);
    const flagged = Object.fromEntries((await week()).map((p) => [p.title, p.overlapsWith]));
    expect(flagged).toEqual({ 'Midday Word': [second.id], 'Lunch Hymns': [first.id] });

    // Back to back is no overlap; an inactive programme overlaps nothing.
    await add({ title: 'Afternoon', startTime: '13:30' });
    await add({ title: 'Spare', startTime: '12:00', isActive: false });
  });

  it('counts a programme that runs past midnight on the next day too', async () => {
    await add({ title: 'Night Vigil', dayOfWeek: 'saturday', startTime: '23:00', duration: 120 });
    const refused = await call('POST', '/api/programs', {
      ...MIDDAY,
      dayOfWeek: 'sunday',
      startTime: '00:30',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('"Night Vigil" (Saturday 23:00–01:00)');
  });

  it('checks an edit that moves a programme or switches it back on, not one that only changes words', async () => {
    const first = await add();
    const second = await add({ title: 'Afternoon', startTime: '14:00' });
    const moved = await call('PATCH', `/api/programs/${second.id}`, { startTime: '12:15' });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toContain('"Midday Word"');
    const confirmed = await call('PATCH', `/api/programs/${second.id}`, {
      startTime: '12:15',
      confirmOverlap: true,
    });
    expect(confirmed.json().overlapsWith).toEqual([first.id]);
    expect((await call('PATCH', `/api/programs/${second.id}`, { title: 'Renamed' })).statusCode).toBe(200);

    await call('PATCH', `/api/programs/${second.id}`, { isActive: false });
    const back = await call('PATCH', `/api/programs/${second.id}`, { isActive: true });
    expect(back.statusCode).toBe(409);
    expect((await week()).find((p) => p.id === second.id)?.isActive).toBe(false);
  });
});

describe('asking about overlaps before a save', () => {
  it('answers 200 with what a new programme would overlap, and stores nothing', async () => {
    await add();
    await add({ title: 'Noon Hymns', startTime: '11:30', dayOfWeek: 'monday', confirmOverlap: true });
    const before = await stored();
    const asked = await call('POST', '/api/programs/check', {
      ...MIDDAY,
      title: 'Lunch',
      startTime: '12:15',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({
      overlaps: [
        { title: 'Noon Hymns', when: 'Monday 11:30–12:30' },
        { title: 'Midday Word', when: 'Monday 12:00–13:00' },
      ],
    });
    const clear = await call('POST', '/api/programs/check', { ...MIDDAY, startTime: '13:00' });
    expect(clear.json()).toEqual({ overlaps: [] });
    const off = await call('POST', '/api/programs/check', { ...MIDDAY, isActive: false });
    expect(off.json()).toEqual({ overlaps: [] });
    expect(await stored()).toBe(before);
  });

  it('answers for a change as its save would: a move is checked, words alone are not', async () => {
    await add();
    const late = await add({ title: 'Afternoon', startTime: '14:00' });
    const accepted = await add({ title: 'Handover', startTime: '12:45', confirmOverlap: true });
    const before = await stored();
    const moved = await call('POST', `/api/programs/${late.id}/check`, { startTime: '11:30' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ overlaps: [{ title: 'Midday Word', when: 'Monday 12:00–13:00' }] });
    const itself = await call('POST', `/api/programs/${late.id}/check`, { startTime: '14:30' });
    expect(itself.json()).toEqual({ overlaps: [] });

    const words = await call('POST', `/api/programs/${accepted.id}/check`, { title: 'Handover Prayer' });
    expect(words.json()).toEqual({ overlaps: [] });
    const missing = await call('POST', '/api/programs/no-such-programme/check', { title: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Programme not found' });
    expect(await stored()).toBe(before);
  });

  it('answers for a one-off change, with the same refusals its save has', async () => {
    const weekly = await add();
    const date = nextDateOn('monday');
    const before = await stored();
    const special = await call('POST', '/api/programs/one-offs/check', {
      kind: 'add',
      date,
      ...MIDDAY,
      title: 'Harvest',
      startTime: '12:30',
    });
    expect(special.statusCode).toBe(200);
    expect(special.json()).toEqual({ overlaps: [{ title: 'Midday Word', when: `12:00–13:00 on ${date}` }] });
    const cancel = await call('POST', '/api/programs/one-offs/check', {
      kind: 'cancel',
      date,
      programId: weekly.id,
    });
    expect(cancel.json()).toEqual({ overlaps: [] });
    const past = await call('POST', '/api/programs/one-offs/check', {
      kind: 'add',
      date: '2000-01-03',
      ...MIDDAY,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('That date has passed: choose today or a later date');
    expect(await stored()).toBe(before);
  });

  it.each([
    ['/api/programs/check', { ...MIDDAY, startTime: '25:00' }, 'Start time must be HH:MM'],
    ['/api/programs/check', { ...MIDDAY, dayOfWeek: undefined }, 'Day must be one of'],
    ['/api/programs/check', { ...MIDDAY, title: 7 }, 'Title must be text'],
    ['/api/programs/check', { ...MIDDAY, duration: 0 }, 'Duration must be a whole number'],
    ['/api/programs/check', { ...MIDDAY, speaker: 'x\u0000' }, 'cannot be stored'],
    [
      '/api/programs/one-offs/check',
      { kind: 'move', date: '2099-01-05' },
      "kind must be 'cancel', 'replace' or 'add'",
    ],
    [
      '/api/programs/one-offs/check',
      { kind: 'add', date: '2099-02-30', ...MIDDAY },
      'date must be a real date',
    ],
    ['/api/programs/one-offs/check', { kind: 'cancel', date: '2099-01-05' }, 'programId is required'],
  ])('refuses a bad check at %s with a clear 400 (case %#)', async (url, body, message) => {
    const res = await call('POST', url, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });
});

describe('one-off changes', () => {
  it('cancels or replaces a weekly programme on a date (the newer change wins), adds a special, lists and deletes', async () => {
    const midday = await add();
    const date = nextDateOn('monday');
    const cancel = await call('POST', '/api/programs/one-offs', {
      kind: 'cancel',
      date,
      programId: midday.id,
    });
    expect(cancel.statusCode, cancel.body).toBe(201);
    expect(cancel.json()).toMatchObject({
      kind: 'cancel',
      date,
      programId: midday.id,
      title: null,
      replaces: { title: 'Midday Word', startTime: '12:00', duration: 60 },
    });

    const replace = await call('POST', '/api/programs/one-offs', {
      kind: 'replace',
      date,
      programId: midday.id,
      title: 'Special Service',
      speaker: 'Bishop Ade',
      startTime: '11:30',
      duration: 120,
    });
    expect(replace.statusCode, replace.body).toBe(201);
    const special = await call('POST', '/api/programs/one-offs', {
      kind: 'add',
      date,
      title: 'Evening Concert',
      speaker: 'Choir',
      ministryFocus: 'Music',
      startTime: '19:00',
      duration: 90,
    });
    expect(special.statusCode, special.body).toBe(201);

    const listed = await call('GET', `/api/programs/one-offs?from=${date}&to=${date}`);
    expect(listed.json().map((o: { kind: string; title: string }) => [o.kind, o.title])).toEqual([
      ['replace', 'Special Service'],
      ['add', 'Evening Concert'],
    ]);
    expect((await call('GET', '/api/programs/one-offs')).json()).toHaveLength(2);

    expect((await call('DELETE', `/api/programs/one-offs/${special.json().id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/programs/one-offs/${special.json().id}`)).json()).toEqual({
      message: 'One-off change not found',
    });
    // Deleting the weekly programme takes its one-off changes with it.
    await call('DELETE', `/api/programs/${midday.id}`);
    expect((await call('GET', '/api/programs/one-offs')).json()).toEqual([]);
  });

  it('refuses a past date, a programme not on that weekday, an unknown programme and a bad range', async () => {
    const midday = await add();
    const before = await stored();
    const today = stationClock(new Date(), 'Africa/Lagos').date;
    const cases: [unknown, number, string][] = [
      [{ kind: 'add', ...MIDDAY, date: addDays(today, -1) }, 400, 'That date has passed'],
      [
        { kind: 'cancel', date: nextDateOn('tuesday'), programId: midday.id },
        400,
        '"Midday Word" is on Mondays;',
      ],
      [
        { kind: 'cancel', date: nextDateOn('monday'), programId: 'no-such-programme' },
        404,
        'Programme not found',
      ],
      [
        { kind: 'cancel', date: '2030-02-30', programId: midday.id },
        400,
        'date must be a real date as YYYY-MM-DD',
      ],
      [{ kind: 'cancel', date: nextDateOn('monday') }, 400, 'programId is required'],
      [{ kind: 'move', date: nextDateOn('monday') }, 400, "kind must be 'cancel', 'replace' or 'add'"],
      [{ kind: 'add', date: nextDateOn('monday'), ...MIDDAY, duration: 0 }, 400, 'Duration must be'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call('POST', '/api/programs/one-offs', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect(await stored()).toBe(before);
    for (const [query, message] of [
      ['from=2030-01-10&to=2030-01-01', 'to must not be before from'],
      ['from=2030-01-01&to=2031-06-01', 'at most 366 days'],
      ['from=yesterday', 'from must be a real date'],
    ]) {
      const res = await call('GET', `/api/programs/one-offs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it('refuses a special that overlaps what airs that date (the day before running past midnight too), until confirmed', async () => {
    await add({ title: 'Night Vigil', dayOfWeek: 'sunday', startTime: '23:00', duration: 120 });
    const midday = await add();
    const date = nextDateOn('monday');
    const special = {
      kind: 'add',
      date,
      title: 'Dawn Prayer',
      speaker: 'Elders',
      startTime: '00:30',
      duration: 60,
    };
    const refused = await call('POST', '/api/programs/one-offs', special);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`"Night Vigil" (23:00–01:00 on ${addDays(date, -1)})`);
    expect(
      (await call('POST', '/api/programs/one-offs', { ...special, confirmOverlap: true })).statusCode,
    ).toBe(201);

    // A replacement does not clash with the programme it replaces.
    const replacement = {
      kind: 'replace',
      date,
      programId: midday.id,
      ...MIDDAY,
      title: 'Longer Word',
      duration: 90,
    };
    expect((await call('POST', '/api/programs/one-offs', replacement)).statusCode).toBe(201);
  });

  it('adds a special service without a speaker', async () => {
    const { speaker: _speaker, ...unnamed } = MIDDAY;
    const res = await call('POST', '/api/programs/one-offs', {
      kind: 'add',
      date: nextDateOn('monday'),
      ...unnamed,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ title: MIDDAY.title, speaker: null });
  });

  it("shows in today's list with SPEC.md's shape and the ministry focus", async () => {
    const today = stationClock(new Date(), 'Africa/Lagos').date;
    const res = await call('POST', '/api/programs/one-offs', {
      kind: 'add',
      date: today,
      title: 'Harvest Thanksgiving',
      speaker: 'Pastor Ruth',
      ministryFocus: 'Family',
      startTime: '23:59',
      duration: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    const list = (await t.app.inject({ url: '/api/programs/today' })).json();
    expect(list).toHaveLength(1);
    expect(programSchema.strict().parse(list[0])).toMatchObject({
      title: 'Harvest Thanksgiving',
      speaker: 'Pastor Ruth',
      ministryFocus: 'Family',
      startTime: '23:59',
      duration: 1,
    });
  });
});

describe('bad input at every schedule write', () => {
  const nasty = fc.oneof(
    fc.constantFrom(
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      '',
      ' ',
      '\u0000',
      '\ud800',
      '25:00',
      'x'.repeat(3000),
      [],
      {},
    ),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.integer(),
  );
  const nearMiss = (template: Record<string, unknown>) =>
    fc
      .record({ key: fc.constantFrom(...Object.keys(template)), value: nasty, drop: fc.boolean() })
      .map(({ key, value, drop }) => {
        const body = { ...template };
        if (drop) delete body[key];
        else body[key] = value;
        return body;
      });
  const bodies = (template: Record<string, unknown>) =>
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.dictionary(fc.string({ maxLength: 12 }), nasty, { maxKeys: 5 }),
      nearMiss(template),
    );

  it('answers every body with a 2xx or a 4xx carrying a message, never a 5xx; a refused body stores nothing', async () => {
    const program = await add({ startTime: '05:00' });
    const date = nextDateOn('monday');
    const routes: [Method, string, Record<string, unknown>][] = [
      ['POST', '/api/programs', MIDDAY],
      ['PATCH', `/api/programs/${program.id}`, { ...MIDDAY, isActive: true }],
      ['POST', '/api/programs/one-offs', { kind: 'replace', date, programId: program.id, ...MIDDAY }],
      ['POST', '/api/programs/one-offs', { kind: 'add', date, ...MIDDAY }],
      ['POST', '/api/programs/check', MIDDAY],
      ['POST', `/api/programs/${program.id}/check`, { ...MIDDAY, isActive: true }],
      ['POST', '/api/programs/one-offs/check', { kind: 'add', date, ...MIDDAY }],
    ];
    for (const [method, url, template] of routes) {
      await fc.assert(
        fc.asyncProperty(bodies(template), async (body) => {
          const before = await stored();
          const res = await t.app.inject({
            method,
            url,
            headers: { ...staff, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expect(
            res.statusCode,
            `${method} ${url} ${JSON.stringify(body).slice(0, 200)} -> ${res.body}`,
          ).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(typeof res.json().message).toBe('string');
            expect(await stored()).toBe(before);
          }
        }),
        { numRuns: 40 },
      );
    }
  });
});
