import { describe, expect, it } from 'vitest';
import { dateIn, mergeMinutes } from './service.js';

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
