import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { programs } from '../../db/schema.js';
import { createTestDatabase } from '../../test/helpers.js';
import { listTodaysPrograms, stationClock } from './service.js';

describe('stationClock', () => {
  it('reads the weekday and minute in the station time zone', () => {
    const instant = new Date('2026-11-22T01:30:00Z'); // Sunday 01:30 UTC, still Saturday in Chicago
    expect(stationClock(instant, 'UTC')).toEqual({ day: 'sunday', minute: 90 });
    expect(stationClock(instant, 'America/Chicago')).toEqual({ day: 'saturday', minute: 19 * 60 + 30 });
  });
});

describe('listTodaysPrograms', () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db;
    await db.insert(programs).values([
      { title: 'Morning', speaker: 'A', startTime: '06:00', duration: 60, dayOfWeek: 'monday' },
      { title: 'Midday', speaker: 'B', startTime: '12:00', duration: 30, dayOfWeek: 'monday' },
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
    ]);
  });
  afterAll(() => handle.close());

  it("lists today's active programmes in order with live, soon and ended states", async () => {
    const list = await listTodaysPrograms(db, 'UTC', new Date('2026-11-23T12:10:00Z')); // a Monday
    expect(list.map((p) => [p.title, p.status, p.isLive, p.isFuture])).toEqual([
      ['Morning', 'ENDED', false, false],
      ['Midday', 'LIVE', true, false],
      ['Soon', 'SOON', false, true],
      ['Evening', 'UPCOMING', false, true],
    ]);
    expect(list[1]?.isCurrent).toBe(true);
  });
});
