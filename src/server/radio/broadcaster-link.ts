// Owns: the broadcaster's heartbeat over the bus, and on a web instance the now playing read back from it.
// Must not: carry audio (listeners are sent to the broadcaster's /stream) nor reach into the engine's parts.
import { z } from 'zod';
import { nowPlayingSchema, STREAM_BITRATES, type NowPlaying } from '../../common/radio.js';
import type { EventBus } from '../plugins/event-bus.js';
import { unknownTrack, type NowPlayingSource } from './now-playing-source.js';

/** The bus topic of the broadcaster's heartbeat: now playing, stream clock and figures, kept as its last word. */
export const BROADCASTER_TOPIC = 'broadcaster';
/** The broadcaster speaks on every change and at least this often. */
export const HEARTBEAT_MS = 5_000;
/** A heartbeat older than this means the broadcaster is not answering (/readyz on web instances). */
export const HEARTBEAT_STALE_MS = 15_000;

const heartbeatSchema = z.object({
  nowPlaying: nowPlayingSchema,
  /** Today's highest listener count, as the broadcaster measured it. */
  peakToday: z.number().int().nonnegative(),
  /** The station elsewhere the broadcaster relays (`icecast:URL` | `url:URL`), or null for the AutoDJ. */
  streamSource: z.string().nullable(),
  /** The bitrates the broadcaster encodes (kbps), the main one first. */
  bitrates: z
    .array(z.number().int())
    .min(1)
    .catch([...STREAM_BITRATES]),
  /** The broadcaster's wall clock when it spoke (ms), to age a retained heartbeat read later. */
  sentAt: z.number(),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

/**
 * On the broadcaster: now playing and the figures over the bus on every change and every few seconds,
 * retained, so web instances show the same and one starting late knows at once. Returns stop.
 */
export function announceBroadcaster(
  bus: EventBus,
  source: NowPlayingSource,
  extra: () => Pick<Heartbeat, 'peakToday' | 'streamSource' | 'bitrates'>,
  log: { warn(message: string): void },
): () => void {
  let warned = false;
  const speak = () => {
    const heartbeat: Heartbeat = { nowPlaying: source.nowPlaying(), ...extra(), sentAt: Date.now() };
    bus.publish(BROADCASTER_TOPIC, heartbeat, { retainMs: HEARTBEAT_STALE_MS }).then(
      () => (warned = false),
      (error: unknown) => {
        if (!warned) log.warn(`broadcaster heartbeat not published: ${(error as Error).message}`);
        warned = true;
      },
    );
  };
  const unsubscribe = source.onChange(speak);
  const timer = setInterval(speak, HEARTBEAT_MS);
  timer.unref();
  speak();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}

/**
 * On a web instance: the broadcaster's now playing as its heartbeats tell it, the stream clock carried
 * forward in real time between them. Its audio is elsewhere: `streamUrl` is the broadcaster's /stream,
 * which carries a station elsewhere too when the broadcaster relays one.
 */
export class BroadcasterFeed implements NowPlayingSource {
  private last: Heartbeat | undefined;
  /** performance.now() at which `last.nowPlaying.stream_clock` was the broadcaster's clock. */
  private clockAt = 0;
  private heardAt = -Infinity;
  private readonly listeners = new Set<(np: NowPlaying) => void>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly options: { bus: EventBus; broadcasterUrl: string; stationName: () => string },
  ) {}

  nowPlaying(): NowPlaying {
    if (!this.last) {
      return {
        current_track: unknownTrack(this.options.stationName()),
        is_live: false,
        listeners: 0,
        stream_clock: 0,
      };
    }
    const { nowPlaying } = this.last;
    const elapsed = Math.max(0, performance.now() - this.clockAt) / 1000;
    // Carried forward no further than a missed heartbeat or two: a silent broadcaster's clock is not guessed on.
    const clock = nowPlaying.stream_clock + Math.min(elapsed, HEARTBEAT_STALE_MS / 1000);
    return { ...nowPlaying, current_track: { ...nowPlaying.current_track }, stream_clock: round(clock) };
  }

  streamUrl(): string {
    return `${this.options.broadcasterUrl}/stream`;
  }

  /** The station elsewhere the broadcaster relays, or null for the AutoDJ. */
  get external(): string | null {
    return this.last?.streamSource ?? null;
  }

  /** The bitrates the broadcaster encodes, the main one first (all of them before its first heartbeat). */
  bitrates(): readonly number[] {
    return this.last?.bitrates ?? STREAM_BITRATES;
  }

  /** Today's peak as the broadcaster measured it (0 before its first heartbeat). */
  peakToday(): number {
    return this.last?.peakToday ?? 0;
  }

  /** Milliseconds since the broadcaster last spoke (Infinity before it has). */
  heartbeatAge(): number {
    return performance.now() - this.heardAt;
  }

  onChange(listener: (np: NowPlaying) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = this.options.bus.subscribe(BROADCASTER_TOPIC, (payload) => this.hear(payload, 0));
    const retained = await this.options.bus.retained(BROADCASTER_TOPIC);
    const parsed = heartbeatSchema.safeParse(retained);
    // A heartbeat heard meanwhile is newer than the retained one.
    if (parsed.success && !this.last) this.hear(parsed.data, Math.max(0, Date.now() - parsed.data.sentAt));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private hear(payload: unknown, ageMs: number): void {
    const parsed = heartbeatSchema.safeParse(payload);
    if (!parsed.success) return;
    const before = this.last?.nowPlaying;
    this.last = parsed.data;
    this.clockAt = performance.now() - ageMs;
    this.heardAt = this.clockAt;
    const now = parsed.data.nowPlaying;
    if (!before || changed(before, now)) for (const listener of this.listeners) listener(this.nowPlaying());
  }
}

/** What a listener sees change (the stream clock moves all the time). */
function changed(a: NowPlaying, b: NowPlaying): boolean {
  const { stream_clock: _a, ...shownA } = a;
  const { stream_clock: _b, ...shownB } = b;
  return JSON.stringify(shownA) !== JSON.stringify(shownB);
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
