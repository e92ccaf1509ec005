import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { createTestDatabase } from '../test/helpers.js';
import { ListenerMeter, listenerStats, recordMinute, startOfDay } from './listener-stats.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

describe('ListenerMeter', () => {
  it('counts listeners now, the minute peak and the seconds listened within the minute', () => {
    const meter = new ListenerMeter(0, T0);
    const a = meter.join(T0 + 10_000);
    const b = meter.join(T0 + 20_000);
    const c = meter.join(T0 + 30_000);
    meter.leave(b, T0 + 50_000);
    meter.leave(b, T0 + 55_000); // a second leave of the same listener counts nothing
    expect(meter.listeners).toBe(2);
    const first = meter.rollMinute(T0 + 60_000);
    // a: 50 s, b: 30 s, c: 30 s
    expect(first).toEqual({ minute: new Date(T0), listeners: 2, peak: 3, listeningSeconds: 110 });
    meter.leave(a, T0 + 90_000);
    const second = meter.rollMinute(T0 + 120_000);
    // a: 30 s of this minute, c: the whole minute
    expect(second).toEqual({ minute: new Date(T0 + 60_000), listeners: 1, peak: 2, listeningSeconds: 90 });
    expect(meter.peakToday).toBe(3);
    meter.resetDay();
    expect(meter.peakToday).toBe(1);
    meter.leave(c, T0 + 130_000);
    expect(meter.listeners).toBe(0);
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
