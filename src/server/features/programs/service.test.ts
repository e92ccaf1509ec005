import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { programOverrides, programs } from '../../db/schema.js';
import { createTestDatabase } from '../../test/helpers.js';
import { listTodaysPrograms, stationClock } from './service.js';

describe('stationClock', () => {
  it('reads the weekday, minute and date in the station time zone', () => {
    const instant = new Date('2026-11-22T01:30:00Z'); // Sunday 01:30 UTC, still Saturday in Chicago
    expect(stationClock(instant, 'UTC')).toEqual({ day: 'sunday', minute: 90, date: '2026-11-22' });
    expect(stationClock(instant, 'America/Chicago')).toEqual({
      day: 'saturday',
      minute: 19 * 60 + 30,
      date: '2026-11-21',
    });
    // Etc/GMT-14 is fourteen hours ahead of UTC (the sign is the other way round).
    expect(stationClock(instant, 'Etc/GMT-14')).toEqual({
      day: 'sunday',
      minute: 15 * 60 + 30,
      date: '2026-11-22',
    });
  });
});

describe('listTodaysPrograms', () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db;
    const rows = await db
      .insert(programs)
      .values([
        { title: 'Morning', speaker: 'A', startTime: '06:00', duration: 60, dayOfWeek: 'monday' },
        {
          title: 'Midday',
          speaker: 'B',
          startTime: '12:00',
          duration: 30,
          dayOfWeek: 'monday',
          ministryFocus: 'Teaching',
        },
        { title: 'Soon', speaker: 'C', startTime: '13:00', duration: 30, dayOfWeek: 'monday' },
        { title: 'Evening', speaker: 'D', startTime: '19:00', duration: 60, dayOfWeek: 'monday' },
        {
          title: 'Hidden',
          speaker: 'E',
          startTime: '12:00',
          duration: 60,
          dayOfWeek: 'monday',
          isActive: 'false',
        },
        { title: 'Tuesday', speaker: 'F', startTime: '12:00', duration: 60, dayOfWeek: 'tuesday' },
        { title: 'Vigil', speaker: 'G', startTime: '23:00', duration: 180, dayOfWeek: 'sunday' },
      ])
      .returning();
    for (const row of rows) ids[row.title] = row.id;
  });
  afterAll(() => handle.close());

  const monday = new Date('2026-11-23T12:10:00Z');
  const summary = (list: Awaited<ReturnType<typeof listTodaysPrograms>>) =>
    list.map((p) => [p.title, p.status, p.isLive, p.isFuture]);

  it("lists today's active programmes in order with live, soon and ended states", async () => {
    const list = await listTodaysPrograms(db, 'UTC', monday);
    expect(summary(list)).toEqual([
      ['Morning', 'ENDED', false, false],
      ['Midday', 'LIVE', true, false],
      ['Soon', 'SOON', false, true],
      ['Evening', 'UPCOMING', false, true],
    ]);
    expect(list[1]).toMatchObject({ isCurrent: true, ministryFocus: 'Teaching', speaker: 'B' });
    expect(list[0]).not.toHaveProperty('ministryFocus');
  });

  it("keeps last night's programme on the list while it is still on the air after midnight", async () => {
    const early = await listTodaysPrograms(db, 'UTC', new Date('2026-11-23T01:30:00Z'));
    expect(summary(early)[0]).toEqual(['Vigil', 'LIVE', true, false]);
    const later = await listTodaysPrograms(db, 'UTC', new Date('2026-11-23T02:00:00Z'));
    expect(later.map((p) => p.title)).not.toContain('Vigil');
  });

  it("applies today's one-off changes: a cancel removes, a replace swaps, an add adds; sorted by start", async () => {
    await db.insert(programOverrides).values([
      { date: '2026-11-23', kind: 'cancel', programId: ids.Morning },
      {
        date: '2026-11-23',
        kind: 'replace',
        programId: ids.Evening,
        title: 'Thanksgiving Service',
        speaker: 'Pastor',
        startTime: '18:30',
        duration: 90,
      },
      {
        date: '2026-11-23',
        kind: 'add',
        title: 'Special Prayer',
        speaker: 'Prayer team',
        ministryFocus: 'Prayer',
        startTime: '09:00',
        duration: 30,
      },
      // Another date's change leaves today alone.
      { date: '2026-11-30', kind: 'cancel', programId: ids.Midday },
    ]);
    const list = await listTodaysPrograms(db, 'UTC', monday);
    expect(summary(list)).toEqual([
      ['Special Prayer', 'ENDED', false, false],
      ['Midday', 'LIVE', true, false],
      ['Soon', 'SOON', false, true],
      ['Thanksgiving Service', 'UPCOMING', false, true],
    ]);
    expect(list[0]).toMatchObject({ ministryFocus: 'Prayer', startTime: '09:00', duration: 30 });
    // The day is the station's: at 12:10 UTC it is already Tuesday in Kiritimati (UTC+14).
    expect((await listTodaysPrograms(db, 'Pacific/Kiritimati', monday)).map((p) => p.title)).toEqual([
      'Tuesday',
    ]);
  });
});
