import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { createTestDatabase } from '../../test/helpers.js';
import { dateIn, listenerStats, mergeMinutes, recordMinute, startOfDay } from './service.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

describe('mergeMinutes', () => {
  const points = Array.from({ length: 10 }, (_, i) => ({
    at: new Date(i * 60_000).toISOString(),
    listeners: i === 7 ? 50 : i,
  }));

  it('keeps points as they are when they fit', () => {
    expect(mergeMinutes(points, 10)).toEqual({ minutesPerPoint: 1, points });
  });

  it('merges runs keeping the highest count, so a peak is never hidden', () => {
    const merged = mergeMinutes(points, 4);
    expect(merged.minutesPerPoint).toBe(3);
    expect(merged.points.map((p) => p.listeners)).toEqual([2, 5, 50, 9]);
    expect(merged.points[1]!.at).toBe(points[3]!.at);
  });
});

describe('dateIn', () => {
  it("gives the station's date, not the server's", () => {
    const instant = new Date('2026-03-01T02:00:00Z');
    expect(dateIn(instant, 'UTC')).toBe('2026-03-01');
    expect(dateIn(instant, 'America/New_York')).toBe('2026-02-28');
  });
});

describe('listener figures in the database', () => {
  it('stores one row a minute and reports peak today, listening hours and the series', async () => {
    const now = new Date(T0 + 10 * 60_000);
    await recordMinute(database.db, {
      minute: new Date(T0 - 86_400_000 * 3),
      listeners: 50,
      peak: 70,
      listeningSeconds: 3000,
    });
    await recordMinute(database.db, {
      minute: new Date(T0 - 86_400_000),
      listeners: 9,
      peak: 12,
      listeningSeconds: 540,
    });
    await recordMinute(database.db, { minute: new Date(T0), listeners: 4, peak: 5, listeningSeconds: 240 });
    await recordMinute(database.db, {
      minute: new Date(T0 + 60_000),
      listeners: 6,
      peak: 8,
      listeningSeconds: 3360,
    });
    // The same minute again (a restart within it) adds its time and keeps the higher peak.
    await recordMinute(database.db, {
      minute: new Date(T0 + 60_000 + 5_000),
      listeners: 2,
      peak: 3,
      listeningSeconds: 3600,
    });
    const stats = await listenerStats(database.db, { days: 2, now, timeZone: 'UTC' });
    expect(stats.peakToday).toBe(8);
    expect(stats.peak).toBe(12);
    expect(stats.listeningHours).toBeCloseTo((540 + 240 + 3360 + 3600) / 3600, 2);
    expect(stats.series).toEqual([
      { minute: new Date(T0 - 86_400_000).toISOString(), listeners: 9, peak: 12 },
      { minute: new Date(T0).toISOString(), listeners: 4, peak: 5 },
      { minute: new Date(T0 + 60_000).toISOString(), listeners: 2, peak: 8 },
    ]);
  });

  it('knows when the station day starts in its time zone', () => {
    const instant = new Date(Date.UTC(2026, 10, 21, 3, 30));
    expect(startOfDay(instant, 'UTC').toISOString()).toBe('2026-11-21T00:00:00.000Z');
    // 03:30 UTC is still 20 November in Los Angeles (UTC-8).
    expect(startOfDay(instant, 'America/Los_Angeles').toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(startOfDay(instant, 'Asia/Tokyo').toISOString()).toBe('2026-11-20T15:00:00.000Z');
  });
});
