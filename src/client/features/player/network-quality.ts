import {
  FAILED_NETWORK_QUALITY,
  LATENCY_AVERAGE_OVER,
  NETWORK_CHECK_MIN_SPACING_MS,
  qualityForLatency,
  type NetworkQuality,
} from '../../../common/player';

export const STREAM_URL_PATH = '/api/radio/stream-url';

/** One HEAD of the stream-url address, not cached; resolves to its round trip in ms, or null when it fails. */
export async function probeStreamUrl(
  fetchFn: typeof fetch = fetch,
  now: () => number = () => performance.now(),
): Promise<number | null> {
  const started = now();
  try {
    const res = await fetchFn(STREAM_URL_PATH, { method: 'HEAD', cache: 'no-store', credentials: 'include' });
    if (!res.ok) return null;
    return now() - started;
  } catch {
    return null;
  }
}

/**
 * SPEC.md section 4's network-quality measurement: latency from the probe, averaged over the last 5,
 * banded into a quality and a bandwidth score; skipped when under 15 s since the last check; a failed
 * check yields bandwidth 1, latency 500, poor.
 */
export class NetworkQualityMonitor {
  private latencies: number[] = [];
  private lastCheck = -Infinity;
  private current: NetworkQuality | null = null;

  constructor(
    private readonly probe: () => Promise<number | null> = () => probeStreamUrl(),
    private readonly clock: () => number = () => Date.now(),
  ) {}

  get quality(): NetworkQuality | null {
    return this.current;
  }

  /** Measures unless the last check was under 15 s ago; returns the quality in force. */
  async check(): Promise<NetworkQuality | null> {
    const now = this.clock();
    if (now - this.lastCheck < NETWORK_CHECK_MIN_SPACING_MS) return this.current;
    this.lastCheck = now;
    const latency = await this.probe();
    if (latency === null) {
      this.current = { ...FAILED_NETWORK_QUALITY };
      return this.current;
    }
    this.latencies = [...this.latencies, latency].slice(-LATENCY_AVERAGE_OVER);
    const average = this.latencies.reduce((a, b) => a + b, 0) / this.latencies.length;
    this.current = qualityForLatency(Math.round(average));
    return this.current;
  }
}
