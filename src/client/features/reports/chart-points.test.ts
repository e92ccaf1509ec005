import { describe, expect, it } from 'vitest';
import { chartPoints } from './chart-points';

describe('the points of the listeners-over-time chart', () => {
  it('give the last bucket its width, so a listener in it shows', () => {
    const overTime = [
      { at: '2026-03-31T22:00:00.000Z', average: 0, peak: 0 },
      { at: '2026-03-31T23:00:00.000Z', average: 0.0111, peak: 1 },
    ];
    expect(chartPoints({ overTime, bucketMinutes: 60 })).toEqual([
      ...overTime,
      { at: '2026-04-01T00:00:00.000Z', average: 0.0111, peak: 1 },
    ]);
    expect(chartPoints({ overTime: [], bucketMinutes: 60 })).toEqual([]);
  });
});
