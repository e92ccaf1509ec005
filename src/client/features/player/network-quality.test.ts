import { describe, expect, it } from 'vitest';
import { NetworkQualityMonitor, probeStreamUrl } from './network-quality';

function monitorWith(latencies: (number | null)[]) {
  let t = 0;
  const queue = [...latencies];
  const monitor = new NetworkQualityMonitor(
    async () => queue.shift() ?? null,
    () => t,
  );
  return { monitor, advance: (ms: number) => (t += ms) };
}

describe('NetworkQualityMonitor', () => {
  it('bands the latency averaged over the last 5 measurements', async () => {
    const { monitor, advance } = monitorWith([40, 40, 40, 40, 40, 300]);
    for (let i = 0; i < 5; i++) {
      expect(await monitor.check()).toEqual({ latency: 40, quality: 'excellent', bandwidth: 10 });
      advance(15_000);
    }
    // (40*4 + 300) / 5 = 92: good.
    expect(await monitor.check()).toEqual({ latency: 92, quality: 'good', bandwidth: 5 });
  });

  it('forgets measurements older than the last 5', async () => {
    const { monitor, advance } = monitorWith([1000, 10, 10, 10, 10, 10]);
    for (let i = 0; i < 6; i++) {
      await monitor.check();
      advance(15_000);
    }
    expect(monitor.quality).toEqual({ latency: 10, quality: 'excellent', bandwidth: 10 });
  });

  it('skips a check under 15 s after the last one', async () => {
    const { monitor, advance } = monitorWith([30, 500]);
    await monitor.check();
    advance(14_999);
    expect(await monitor.check()).toEqual({ latency: 30, quality: 'excellent', bandwidth: 10 });
    advance(1);
    // (30 + 500) / 2 = 265 ms: poor.
    expect(await monitor.check()).toEqual({ latency: 265, quality: 'poor', bandwidth: 1 });
  });

  it('a failed check yields bandwidth 1, latency 500, poor', async () => {
    const { monitor } = monitorWith([null]);
    expect(await monitor.check()).toEqual({ bandwidth: 1, latency: 500, quality: 'poor' });
  });
});

describe('probeStreamUrl', () => {
  it('sends HEAD with no-store to the stream-url address and times it', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    let t = 100;
    const fetchFn = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      t += 42;
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    expect(await probeStreamUrl(fetchFn, () => t)).toBe(42);
    expect(calls[0]![0]).toBe('/api/radio/stream-url');
    expect(calls[0]![1]).toMatchObject({ method: 'HEAD', cache: 'no-store' });
  });
  it('is null when the request fails or answers an error', async () => {
    expect(
      await probeStreamUrl((async () => {
        throw new TypeError('offline');
      }) as typeof fetch),
    ).toBeNull();
    expect(
      await probeStreamUrl((async () => new Response(null, { status: 503 })) as typeof fetch),
    ).toBeNull();
  });
});
