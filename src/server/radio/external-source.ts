// Owns: a station elsewhere (STREAM_SOURCE) as a source: its stream asked for, its status polled and cached.
// Must not: decode or air its audio (upstream-relay.ts, relay-on-air.ts), nor check addresses (its feature).
import { performance } from 'node:perf_hooks';
import type { NowPlaying } from '../../common/radio.js';
import { readUpstreamStatus, type UpstreamStatus } from './external-status.js';
import { unknownTrack, type NowPlayingSource } from './now-playing-source.js';
import type { UpstreamStation } from './upstream-relay.js';

/** STREAM_SOURCE: `icecast:URL` (a mount on an Icecast server) or `url:URL` (a stream hosted anywhere). */
export interface ExternalStream {
  kind: 'icecast' | 'url';
  streamUrl: string;
}

export function parseStreamSource(value: string): ExternalStream {
  const match = /^(icecast|url):(https?:\/\/\S+)$/.exec(value.trim());
  if (!match) throw new Error('STREAM_SOURCE must be icecast:URL or url:URL');
  return { kind: match[1] as ExternalStream['kind'], streamUrl: new URL(match[2]!).href };
}

/** Icecast publishes every mount's now playing at /status-json.xsl on the same server. */
export function statusUrlFor(stream: ExternalStream, statusUrl?: string): string | undefined {
  if (statusUrl) return statusUrl;
  return stream.kind === 'icecast' ? new URL('/status-json.xsl', stream.streamUrl).href : undefined;
}

interface Logger {
  warn(message: string): void;
  info(message: string): void;
}

/** How the status and the stream are asked for: a `fetch`. */
export type StatusFetch = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<Response>;

export interface ExternalSourceOptions {
  streamSource: string;
  /** STREAM_STATUS_URL: Icecast, Radio.co-style or AzuraCast status JSON; Icecast's own by default. */
  statusUrl?: string;
  stationName: string;
  log: Logger;
  pollIntervalMs?: number;
  timeoutMs?: number;
  /**
   * Plain `fetch` unless given: the Station tab's saved source is asked for its status and its stream
   * through its address check.
   */
  fetch?: StatusFetch;
}

export const EXTERNAL_POLL_INTERVAL_MS = 10_000;
export const EXTERNAL_TIMEOUT_MS = 5_000;
const STATUS_SIZE_LIMIT = 1024 * 1024;

/**
 * A station hosted elsewhere, as the engine relays it: its stream asked for through the given `fetch`, and
 * its now playing. The upstream status is polled on our own timer, one request at a time, and readers only
 * ever see the cached value: listener polling never reaches the upstream, and when the upstream fails the
 * last good value stays on air.
 */
export class ExternalStationSource implements NowPlayingSource, UpstreamStation {
  private readonly stream: ExternalStream;
  private readonly statusUrl: string | undefined;
  private readonly interval: number;
  private readonly timeout: number;
  private readonly listeners = new Set<(nowPlaying: NowPlaying) => void>();
  private readonly startedAt = performance.now();
  private current: Omit<NowPlaying, 'stream_clock'>;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: AbortController | undefined;
  private polling: Promise<void> | undefined;
  private failing = false;
  private stopped = true;

  constructor(private readonly options: ExternalSourceOptions) {
    this.stream = parseStreamSource(options.streamSource);
    this.statusUrl = statusUrlFor(this.stream, options.statusUrl);
    this.interval = options.pollIntervalMs ?? EXTERNAL_POLL_INTERVAL_MS;
    this.timeout = options.timeoutMs ?? EXTERNAL_TIMEOUT_MS;
    this.current = { current_track: unknownTrack(options.stationName), is_live: false, listeners: 0 };
  }

  nowPlaying(): NowPlaying {
    return { ...this.current, stream_clock: this.clock() };
  }

  streamUrl(): string {
    return this.stream.streamUrl;
  }

  get address(): string {
    return this.stream.streamUrl;
  }

  /** One request for the stream, its audio only (no ICY metadata: the title comes from the status). */
  openStream(signal: AbortSignal): Promise<Response> {
    const request = this.options.fetch ?? fetch;
    return request(this.stream.streamUrl, { signal, headers: { accept: 'audio/*, */*;q=0.5' } });
  }

  onChange(listener: (nowPlaying: NowPlaying) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the status once (bounded by the timeout, never throwing), then keeps polling. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (!this.statusUrl) {
      // No status endpoint: the station name is all we can say, and the stream is assumed on air.
      this.apply({
        title: null,
        artist: null,
        artworkUrl: null,
        listeners: 0,
        onAir: true,
        startedAtMs: null,
      });
      return;
    }
    await this.poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.inFlight?.abort();
    await this.polling;
  }

  /** Seconds since this source started: an external station has no clock of ours to share. */
  private clock(): number {
    return Math.round(performance.now() - this.startedAt) / 1000;
  }

  private poll(): Promise<void> {
    // Single flight: the next poll is only scheduled once this one has finished.
    this.polling ??= this.fetchStatus()
      .then((status) => {
        this.recovered();
        this.apply(status);
      })
      .catch((error: unknown) => this.failed(error))
      .finally(() => {
        this.polling = undefined;
        if (!this.stopped) this.timer = setTimeout(() => void this.poll(), this.interval).unref();
      });
    return this.polling;
  }

  private async fetchStatus(): Promise<UpstreamStatus> {
    this.inFlight = new AbortController();
    const signal = AbortSignal.any([this.inFlight.signal, AbortSignal.timeout(this.timeout)]);
    const request = this.options.fetch ?? fetch;
    const response = await request(this.statusUrl!, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`it answered HTTP ${response.status}`);
    }
    return readUpstreamStatus(await readLimited(response, STATUS_SIZE_LIMIT), this.stream.streamUrl);
  }

  private recovered(): void {
    if (this.failing) this.options.log.info(`External station status is back (${this.statusUrl})`);
    this.failing = false;
  }

  /** Logged once per outage, not on every poll; the last good now playing stays. */
  private failed(error: unknown): void {
    if (this.failing || this.stopped) return;
    this.failing = true;
    const reason = describeFailure(error);
    this.options.log.warn(
      `External station status unavailable (${this.statusUrl}): ${reason}; keeping the last now playing`,
    );
  }

  private apply(status: UpstreamStatus): void {
    const fallback = unknownTrack(this.options.stationName);
    const title = status.title ?? fallback.title;
    const artist = status.artist ?? fallback.artist;
    const previous = this.current;
    const sameTrack =
      previous.current_track.title === title &&
      previous.current_track.artist === artist &&
      previous.current_track.artwork_url === status.artworkUrl;
    const next: Omit<NowPlaying, 'stream_clock'> = {
      current_track: {
        title,
        artist,
        artwork_url: status.artworkUrl,
        started_at: sameTrack ? previous.current_track.started_at : this.startedAtOnClock(status.startedAtMs),
      },
      is_live: status.onAir,
      listeners: status.listeners,
    };
    if (sameTrack && next.is_live === previous.is_live && next.listeners === previous.listeners) return;
    this.current = next;
    const nowPlaying = this.nowPlaying();
    for (const listener of this.listeners) listener(nowPlaying);
  }

  /** The upstream's wall-clock start of the track, placed on our clock (never before 0, never ahead). */
  private startedAtOnClock(startedAtMs: number | null): number {
    const now = this.clock();
    if (startedAtMs === null) return now;
    const ago = (Date.now() - startedAtMs) / 1000;
    return Math.round(Math.min(now, Math.max(0, now - ago)) * 1000) / 1000;
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer in time';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}

async function readLimited(response: Response, limit: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel();
    throw new Error('the status answer is too large');
  }
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error('the status answer is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
