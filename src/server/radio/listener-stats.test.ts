import { describe, expect, it } from 'vitest';
import { ListenerMeter } from './listener-stats.js';

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
