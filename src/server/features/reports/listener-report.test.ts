import { describe, expect, it } from 'vitest';
import type { SessionSpan } from '../listeners/service.js';
import { listenerReport } from './listener-report.js';

const at = (iso: string) => Date.parse(iso);
const session = (start: string, end: string): SessionSpan => ({
  start: at(start),
  end: at(end),
  bitrate: 128,
  player: 'browser',
  country: null,
});
const report = (from: string, to: string, sessions: SessionSpan[]) =>
  listenerReport({
    period: { from, to },
    timeZone: 'UTC',
    from: at(`${from}T00:00:00Z`),
    to: at(`${to}T00:00:00Z`) + 86_400_000,
    sessions,
    programmes: [],
    windows: null,
    geoip: false,
  });
const pointAt = (r: ReturnType<typeof report>, iso: string) => r.overTime.find((p) => p.at === iso)!;

describe('listeners over time: a session shorter than a point still shows in its point', () => {
  it('40 seconds inside an hour of a month: a listener at the peak, and some average', () => {
    const r = report('2026-03-01', '2026-03-31', [session('2026-03-10T14:20:00Z', '2026-03-10T14:20:40Z')]);
    expect(r.bucketMinutes).toBe(60);
    const hour = pointAt(r, '2026-03-10T14:00:00.000Z');
    expect(hour.peak).toBe(1);
    expect(hour.average).toBeGreaterThan(0);
    expect(pointAt(r, '2026-03-10T13:00:00.000Z')).toMatchObject({ peak: 0, average: 0 });
    expect(pointAt(r, '2026-03-10T15:00:00.000Z')).toMatchObject({ peak: 0, average: 0 });
    expect(r.overTime.reduce((n, p) => n + p.peak, 0)).toBe(1);
  });

  it('the shortest listener (ten seconds by the rule) is still some average in an hour, not nobody', () => {
    const r = report('2026-03-01', '2026-03-31', [session('2026-03-10T14:20:00Z', '2026-03-10T14:20:12Z')]);
    const hour = pointAt(r, '2026-03-10T14:00:00.000Z');
    expect(hour.peak).toBe(1);
    expect(hour.average).toBeGreaterThan(0);
    expect(hour.average).toBeCloseTo(12 / 3600, 4);
  });

  it('40 seconds in a day of a year, in the last point, and across two points', () => {
    const year = report('2026-01-01', '2026-12-31', [
      session('2026-06-01T09:00:00Z', '2026-06-01T09:00:40Z'),
    ]);
    expect(year.bucketMinutes).toBe(1440);
    const june = pointAt(year, '2026-06-01T00:00:00.000Z');
    expect(june.peak).toBe(1);
    expect(june.average).toBeGreaterThan(0);

    const last = report('2026-03-01', '2026-03-31', [
      session('2026-03-31T23:59:00Z', '2026-03-31T23:59:40Z'),
    ]);
    expect(last.overTime.at(-1)).toMatchObject({ at: '2026-03-31T23:00:00.000Z', peak: 1 });

    const across = report('2026-03-01', '2026-03-31', [
      session('2026-03-10T14:59:40Z', '2026-03-10T15:00:20Z'),
    ]);
    expect(pointAt(across, '2026-03-10T14:00:00.000Z').peak).toBe(1);
    expect(pointAt(across, '2026-03-10T15:00:00.000Z').peak).toBe(1);
  });
});
