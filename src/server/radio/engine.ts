import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { NowPlaying, Track } from '../../common/radio.js';
import type { Config } from '../config.js';
import { AutoDj, type Cue, type PlayOrder } from './autodj.js';
import { Broadcaster, type BroadcasterOptions } from './broadcaster.js';
import type { TimedFrame } from './frame-history.js';
import { mediaFolderProvider, type LibraryProvider } from './library.js';
import { ListenerMeter } from './listener-stats.js';
import { LiveInput, type LiveSession } from './live-input.js';
import { silentFrame, type Mp3Frame } from './mp3-frames.js';
import type { NowPlayingSource } from './now-playing-source.js';
import type { RadioStorage } from './storage.js';
import { TEST_TRANSMISSION_FILE } from './test-transmission.js';

export interface RadioEngineOptions {
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'station'>;
  /** The station as staff last saved it (name, time zone); defaults to the config's. */
  station?: () => { name: string; timeZone: string };
  /** Play order, live-input password and listener minutes, kept by the features that own them. */
  storage: RadioStorage;
  log?: FastifyBaseLogger;
  /** How often audio is produced and written to listeners, in ms (batched: one write per listener per tick). */
  tickMs?: number;
  /** How often listeners that do not read are looked for (milliseconds). */
  stallCheckMs?: number;
  broadcaster?: BroadcasterOptions;
  /** Default: DATA_DIR/media. */
  mediaDir?: string;
  /** Played when the library is empty. Default: the shipped test transmission. */
  fallbackFile?: string;
  /** Listener-count pushes are at most this often, in ms. */
  listenerPushMs?: number;
  /** A live source silent this long (ms) is covered with silence, within one tick or two of the gap. */
  liveGapMs?: number;
  /**
   * A live source that keeps its connection but sends nothing this long (ms) hands the air back to the
   * AutoDJ; now playing says so. It is back on air with its next audio.
   */
  liveSilentHandBackMs?: number;
}

/** After a stall (busy event loop, starving encoder) we do not rush to catch up more than this. */
const MAX_CATCH_UP_SECONDS = 1;

/**
 * The built-in station: AutoDJ and live input feeding one broadcaster on one stream clock, paced in
 * real time by MP3 frame durations, with listener figures measured as listeners come and go.
 */
export class RadioEngine implements NowPlayingSource {
  readonly broadcaster: Broadcaster;
  readonly live: LiveInput;
  readonly meter = new ListenerMeter();
  private readonly autodj: AutoDj;
  private readonly tickMs: number;
  private readonly stallCheckMs: number;
  private stallTimer: NodeJS.Timeout | null = null;
  private readonly listenerPushMs: number;
  private readonly liveGapMs: number;
  private readonly liveSilentHandBackMs: number;
  private readonly silence = silentFrame();
  private starvedSince: number | null = null;
  private track: Track;
  private isLive = false;
  /** Listeners on the Icecast relays pulling /stream (RELAY_URLS), from their status pages. */
  private relayListeners = 0;
  private wallBase = 0;
  private timer: NodeJS.Timeout | null = null;
  private minuteTimer: NodeJS.Timeout | null = null;
  private pushTimer: NodeJS.Timeout | null = null;
  private lastPush = 0;
  private day = 0;
  private running = false;
  private readonly changeListeners = new Set<(np: NowPlaying) => void>();
  private readonly cueListeners = new Set<(cue: Cue) => void>();

  constructor(private readonly options: RadioEngineOptions) {
    const { config } = options;
    this.tickMs = options.tickMs ?? 200;
    this.stallCheckMs = options.stallCheckMs ?? 2000;
    this.listenerPushMs = options.listenerPushMs ?? 5000;
    this.liveGapMs = options.liveGapMs ?? 400;
    this.liveSilentHandBackMs = options.liveSilentHandBackMs ?? 5000;
    this.track = {
      title: `${config.station.name} Live`,
      artist: config.station.name,
      artwork_url: null,
      started_at: 0,
    };
    this.broadcaster = new Broadcaster(options.broadcaster, {
      onJoin: () => {
        const id = this.meter.join();
        this.listenersChanged();
        return id;
      },
      onLeave: (id) => {
        this.meter.leave(id);
        this.listenersChanged();
      },
    });
    this.broadcaster.setTitle(this.streamTitle());
    this.live = new LiveInput({ onMetadata: (session) => this.liveMetadata(session) });
    this.autodj = new AutoDj({
      providers: [mediaFolderProvider(options.mediaDir ?? join(config.dataDir, 'media'))],
      fallback: { path: options.fallbackFile ?? TEST_TRANSMISSION_FILE },
      order: () => this.playOrder(),
      stationName: () => this.station().name,
      onTrack: (t) =>
        this.setTrack({
          title: t.title,
          artist: t.artist,
          artwork_url: t.artworkUrl,
          started_at: round(t.startedAt),
        }),
      onCue: (cue) => {
        for (const listener of this.cueListeners) listener(cue);
      },
      onError: (error, item) =>
        options.log?.warn({ err: error, path: item.path }, 'AutoDJ could not play a file'),
    });
  }

  // --- NowPlayingSource -------------------------------------------------------------------------

  nowPlaying(): NowPlaying {
    return {
      current_track: { ...this.track },
      is_live: this.isLive,
      listeners: this.broadcaster.listenerCount + this.relayListeners,
      stream_clock: round(this.broadcaster.clock),
    };
  }

  streamUrl(origin: string): string {
    const base = this.options.config.publicUrl ?? origin;
    return `${base.replace(/\/+$/, '')}/stream`;
  }

  onChange(listener: (np: NowPlaying) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.autodj.prepare();
    this.wallBase = performance.now() - this.broadcaster.clock * 1000;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.stallTimer = setInterval(() => void this.dropStalled(), this.stallCheckMs);
    this.day = this.options.storage.startOfDay(new Date(), this.station().timeZone).getTime();
    this.scheduleMinute();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of [this.timer, this.pushTimer, this.stallTimer]) if (timer) clearInterval(timer);
    this.stallTimer = null;
    if (this.minuteTimer) clearTimeout(this.minuteTimer);
    this.timer = this.pushTimer = this.minuteTimer = null;
    this.broadcaster.closeAll();
    this.live.session?.abort?.();
    this.autodj.stop();
    await this.storeMinute();
  }

  private async dropStalled(): Promise<void> {
    const dropped = await this.broadcaster.dropStalledListeners().catch(() => 0);
    if (dropped) this.options.log?.info({ dropped }, 'dropped listeners that stopped reading');
  }

  // --- engine features ---------------------------------------------------------------------------

  bitrateKbps(): number {
    return this.broadcaster.bitrateKbps;
  }

  /** The relays' listeners now: counted in now playing and the stored figures like our own. */
  setRelayListeners(count: number): void {
    if (count === this.relayListeners) return;
    this.relayListeners = count;
    this.meter.setRelayed(count);
    this.listenersChanged();
  }

  /** Subtitle lines of AutoDJ media as they play (the subtitles feature stores them). */
  onCue(listener: (cue: Cue) => void): () => void {
    this.cueListeners.add(listener);
    return () => this.cueListeners.delete(listener);
  }

  /** Adds playable items to the AutoDJ (e.g. uploaded sermon audio). */
  addSource(provider: LibraryProvider): void {
    this.autodj.addSource(provider);
  }

  /** Broadcast frames between two stream-clock seconds (for listener clips); the last few minutes are kept. */
  framesBetween(from: number, to: number): TimedFrame[] {
    return this.broadcaster.history.between(from, to);
  }

  /** Produces audio up to now (plus one tick of lead) and sends it. Public for tests that step time. */
  tick(): void {
    const now = performance.now();
    let target = (now - this.wallBase) / 1000;
    if (target - this.broadcaster.clock > MAX_CATCH_UP_SECONDS) {
      this.wallBase = now - this.broadcaster.clock * 1000;
      target = this.broadcaster.clock;
    }
    target += this.tickMs / 1000;
    while (this.broadcaster.clock < target) {
      const frame = this.pull(now);
      if (frame) {
        this.broadcaster.push(frame);
        continue;
      }
      // A live encoder lags: a short gap is waited out; a longer one is filled with silence at once so
      // players hear no gap (and the clock keeps time), until the encoder recovers or hands back.
      if (now - (this.starvedSince ?? now) < this.liveGapMs) break;
      this.broadcaster.push(this.silence);
    }
    this.broadcaster.flush();
  }

  /**
   * The next frame: the live source when it is on air, else the AutoDJ; null while a live encoder lags
   * (briefly). An encoder silent past the hand-back time gives the air to the AutoDJ until it sends again.
   */
  private pull(now: number): Mp3Frame | null {
    const session = this.live.session;
    if (session?.onAir) {
      const frame = session.nextFrame();
      if (frame) {
        this.starvedSince = null;
        if (!this.isLive) this.goLive(session);
        return frame;
      }
      if (!session.done) {
        this.starvedSince ??= now;
        if (now - this.starvedSince < this.liveSilentHandBackMs) {
          if (!this.isLive) this.goLive(session);
          return null;
        }
        if (this.isLive) {
          this.isLive = false;
          this.autodj.announce(this.broadcaster.clock);
          this.options.log?.warn('live source connected but silent; AutoDJ continues until it sends again');
        }
        return this.autodj.nextFrame(this.broadcaster.clock);
      }
      this.starvedSince = null;
      this.live.release(session);
      this.isLive = false;
      this.autodj.announce(this.broadcaster.clock);
      this.options.log?.info('live source ended; AutoDJ continues');
    }
    if (this.isLive) {
      this.isLive = false;
      this.autodj.announce(this.broadcaster.clock);
    }
    return this.autodj.nextFrame(this.broadcaster.clock);
  }

  private goLive(session: LiveSession): void {
    this.isLive = true;
    this.options.log?.info({ remote: session.info.remote }, 'live source on air');
    this.setTrack(this.liveTrack(session));
  }

  private liveMetadata(session: LiveSession): void {
    if (this.isLive && this.live.session === session) this.setTrack(this.liveTrack(session));
  }

  private liveTrack(session: LiveSession): Track {
    const station = this.station().name;
    const song = session.song?.trim();
    const split = song ? song.split(' - ') : [];
    const [artist, title] =
      split.length >= 2
        ? [split[0]!.trim(), split.slice(1).join(' - ').trim()]
        : [station, song || session.info.name?.trim() || `${station} Live`];
    return {
      title: title || `${station} Live`,
      artist: artist || station,
      artwork_url: null,
      started_at: round(this.broadcaster.clock),
    };
  }

  private setTrack(track: Track): void {
    this.track = track;
    this.broadcaster.setTitle(this.streamTitle());
    this.emitChange();
  }

  private station(): { name: string; timeZone: string } {
    return this.options.station?.() ?? this.options.config.station;
  }

  private streamTitle(): string {
    return `${this.track.artist} - ${this.track.title}`;
  }

  private emitChange(): void {
    this.lastPush = Date.now();
    const np = this.nowPlaying();
    for (const listener of this.changeListeners) listener(np);
  }

  /** Listener counts change often; they are pushed at most every few seconds, the last one always. */
  private listenersChanged(): void {
    if (this.pushTimer) return;
    const wait = Math.max(0, this.lastPush + this.listenerPushMs - Date.now());
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      this.emitChange();
    }, wait);
    this.pushTimer.unref();
  }

  private async playOrder(): Promise<PlayOrder> {
    return this.options.storage.playOrder().catch(() => 'in_order' as const);
  }

  /** The password live sources must give (see SourcePasswordStore). */
  sourcePassword(): Promise<string | null> {
    return this.options.storage.sourcePassword();
  }

  private scheduleMinute(): void {
    const wait = 60_000 - (Date.now() % 60_000);
    this.minuteTimer = setTimeout(() => {
      void this.storeMinute().finally(() => {
        if (this.running) this.scheduleMinute();
      });
    }, wait);
    this.minuteTimer.unref();
  }

  /** Writes the minute that just ended; a new station day starts a fresh peak. */
  async storeMinute(): Promise<void> {
    const figures = this.meter.rollMinute();
    const today = this.options.storage.startOfDay(new Date(), this.station().timeZone).getTime();
    if (today !== this.day) {
      this.day = today;
      this.meter.resetDay();
    }
    await this.options.storage
      .recordMinute(figures)
      .catch((error: unknown) => this.options.log?.warn({ err: error }, 'could not store listener figures'));
  }
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
