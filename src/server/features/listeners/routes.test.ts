import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerStatsSchema } from '../../../common/listeners.js';
import { listenerMinutes } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Awaited<ReturnType<typeof addStaff>>;

const minutesAgo = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  staff = await addStaff(t.db, 'deacon-stats', 'admin');
  // Two listeners for ten minutes an hour ago, and a peak of five two days ago.
  for (let m = 60; m < 70; m++) {
    await t.db
      .insert(listenerMinutes)
      .values({ minute: minutesAgo(m), listeners: 2, peak: 2, listeningSeconds: 120 });
  }
  await t.db
    .insert(listenerMinutes)
    .values({ minute: minutesAgo(2 * 1440), listeners: 3, peak: 5, listeningSeconds: 3600 });
  // Older than 30 days: in no period.
  await t.db
    .insert(listenerMinutes)
    .values({ minute: minutesAgo(31 * 1440), listeners: 9, peak: 9, listeningSeconds: 540 });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('GET /api/admin/listeners', () => {
  it('answers 401 without a token or with a bad one', async () => {
    expect((await get('/api/admin/listeners?days=7')).statusCode).toBe(401);
    expect((await get('/api/admin/listeners?days=7', { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });

  it('answers the figures of the last 7 days to staff', async () => {
    const res = await get('/api/admin/listeners?days=7', staff.headers);
    expect(res.statusCode).toBe(200);
    const body = listenerStatsSchema.parse(res.json());
    expect(body.days).toBe(7);
    expect(Math.abs(Date.parse(body.until) - Date.now())).toBeLessThan(60_000);
    expect(body.peakListeners).toBe(5);
    // 10 × 120 s + 3600 s = 4800 s.
    expect(body.listeningHours).toBeCloseTo(4800 / 3600, 2);
    expect(body.perMinute).toHaveLength(11);
    expect(body.minutesPerPoint).toBe(1);
    expect(body.perDay).toHaveLength(7);
    expect(body.perDay.reduce((sum, day) => sum + day.hours, 0)).toBeCloseTo(4800 / 3600, 1);
    expect(body.perDay.map((d) => d.date)).toEqual([...body.perDay.map((d) => d.date)].sort());
  });

  it('answers 30 days, leaving out older figures', async () => {
    const res = await get('/api/admin/listeners?days=30', staff.headers);
    expect(res.statusCode).toBe(200);
    const body = listenerStatsSchema.parse(res.json());
    expect(body.perDay).toHaveLength(30);
    expect(body.peakListeners).toBe(5);
  });

  it.each(['0', '8', 'abc', '7.5', ''])('refuses days=%s with 400 and a message', async (days) => {
    const res = await get(`/api/admin/listeners?days=${days}`, staff.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.stringContaining('days must be 7 or 30') });
  });
});
