// Owns: the wiring: RadioEngine, the station's air as the rest of the server sees it, built from its parts.
// Must not: mix, pace, encode or count here; each concern has its file (docs/radio.md, Where things are).
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_AUDIO_SETTINGS, type AudioSettings } from '../../common/audio-settings.js';
import { STREAM_BITRATES, type NowPlaying } from '../../common/radio.js';
import type { Config } from '../config.js';
import { Announcer } from './announcer.js';
import { AutoDj, type Cue } from './autodj.js';
import type { Broadcaster, BroadcasterOptions } from './broadcaster.js';
import type { TimedFrame } from './frame-history.js';
import { mediaFolderProvider, type LibraryProvider } from './library.js';
import type { ListenerMeter } from './listener-stats.js';
import { Listeners } from './listeners.js';
import { LiveInput } from './live-input.js';
import type { NowPlayingSource } from './now-playing-source.js';
import { roundClock, type AirEvent, type OnAir } from './on-air.js';
import { Outputs } from './outputs.js';
import { LibraryProgramming, type Programming } from './programming.js';
import type { RelayTiming } from './relay-on-air.js';
import { SourceSwitch } from './source-switch.js';
import type { RadioStorage } from './storage.js';
import { FIRST_AUDIO_WAIT_MS, StreamClock } from './stream-clock.js';
import { supervise } from './supervision.js';
import { TEST_TRANSMISSION_FILE, TEST_TRANSMISSION_LOUDNESS_LUFS } from './test-transmission.js';
import type { UpstreamStation } from './upstream-relay.js';

export type { AirEvent } from './on-air.js';

export interface RadioEngineOptions {
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'station'>;
  /** The station as staff last saved it (name, time zone); defaults to the config's. */
  station?: () => { name: string; timeZone: string };
  /** Play order, live-input password and listener minutes, kept by the features that own them. */
  storage: RadioStorage;
  log?: FastifyBaseLogger;
  /** How often audio is produced and broadcast, in ms (written to listeners in pieces: LISTENER_WRITE_SECONDS). */
  tickMs?: number;
  /** How often listeners that do not read are looked for (milliseconds). */
  stallCheckMs?: number;
  broadcaster?: BroadcasterOptions;
  /**
   * A folder whose audio files play as they are, by name (tests; the station plays its media library, added
   * with `addSource`, which imports DATA_DIR/media).
   */
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
  /** The longest stall (seconds) caught up by sending the audio missed at once. Default: 5. */
  maxCatchUpSeconds?: number;
  /** How a relayed station elsewhere is reconnected (tests shorten the waits). */
  relay?: RelayTiming;
}

/**
 * The built-in station: AutoDJ, live input and a relayed station elsewhere (SourceSwitch) feeding one encoder
 * and a mount per bitrate (Outputs) on one stream clock (StreamClock), paced in real time by MP3 frame
 * durations, its processes supervised every tick (supervision.ts), with listener figures measured as listeners
 * come and go (Listeners) and what plays told as it changes (Announcer).
 */
export class RadioEngine implements NowPlayingSource {
  readonly live: LiveInput;
  private readonly listeners: Listeners;
  private readonly outputs: Outputs;
  private readonly announcer: Announcer;
  private readonly clock: StreamClock;
  private readonly autodj: AutoDj;
  private readonly library: LibraryProgramming;
  private readonly sources: SourceSwitch;
  private settings: AudioSettings = DEFAULT_AUDIO_SETTINGS;
  private readonly tickMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly options: RadioEngineOptions) {
    const { config } = options;
    this.tickMs = options.tickMs ?? 200;
    const gapMs = options.liveGapMs ?? 400;
    this.listeners = new Listeners({
      mounts: () => this.outputs.all(),
      changed: () => this.announcer.listenersChanged(),
      storage: options.storage,
      timeZone: () => this.station().timeZone,
      stallCheckMs: options.stallCheckMs,
      running: () => this.running,
      log: options.log,
    });
    this.outputs = new Outputs({
      broadcaster: options.broadcaster,
      events: this.listeners.events,
      settings: () => this.settings,
      log: (message) => options.log?.warn(message),
    });
    this.announcer = new Announcer({
      track: {
        title: `${config.station.name} Live`,
        artist: config.station.name,
        artwork_url: null,
        started_at: 0,
      },
      pushMs: options.listenerPushMs ?? 5000,
      nowPlaying: () => this.nowPlaying(),
      setTitle: (title, from) => this.outputs.setTitle(title, from),
      clock: () => this.broadcaster.clock,
    });
    this.outputs.setTitle(this.announcer.streamTitle());
    this.live = new LiveInput({ onMetadata: (session) => this.sources.liveMetadata(session) });
    this.library = new LibraryProgramming(options.mediaDir ? [mediaFolderProvider(options.mediaDir)] : []);
    this.clock = new StreamClock(
      {
        broadcastClock: () => this.broadcaster.clock,
        supervise: (now, slot) =>
          supervise(
            {
              autodj: this.autodj,
              live: this.sources.live.liveDecoder,
              relay: this.sources.relay.relay,
              encoder: this.outputs.encoderRun,
            },
            now,
            slot,
          ),
        mix: (out, at, clock, now) => this.sources.mix(out, at, clock, now),
        outputs: this.outputs,
        onFirstBroadcast: () => this.announcer.changed(),
      },
      { tickMs: this.tickMs, maxCatchUpSeconds: options.maxCatchUpSeconds, gapMs },
    );
    this.autodj = new AutoDj({
      programming: this.library,
      // The slot being broadcast now is at (now − wallBase); a slot's audio is on the air at its own time.
      clock: { wallAt: (clock) => this.clock.wallAt(clock), clockAt: (wall) => this.clock.clockAt(wall) },
      fallback: options.fallbackFile
        ? { path: options.fallbackFile }
        : { path: TEST_TRANSMISSION_FILE, loudnessLufs: TEST_TRANSMISSION_LOUDNESS_LUFS },
      mixing: async () => {
        await this.readSettings();
        return {
          loudnessTargetLufs: this.settings.loudness_target_lufs,
          crossfadeSeconds: this.settings.crossfade_seconds,
        };
      },
      log: (message, detail) => options.log?.warn(detail, message),
      stationName: () => this.station().name,
      onTrack: (t) =>
        this.announcer.setTrack(
          {
            title: t.title,
            artist: t.artist,
            artwork_url: t.artworkUrl,
            started_at: roundClock(t.startedAt),
          },
          t.startedAt,
        ),
      onCue: (cue) => this.announcer.cue(cue),
      onError: (error, item) =>
        options.log?.warn({ err: error, path: item.path }, 'AutoDJ could not play a file'),
    });
    const air: OnAir = {
      settings: () => this.settings,
      log: options.log,
      emit: (event) => this.announcer.emit(event),
      setTrack: (track, from) => this.announcer.setTrack(track, from),
      track: () => this.announcer.track,
      clock: () => this.broadcaster.clock,
      wallAt: (clock) => this.clock.wallAt(clock),
      stationName: () => this.station().name,
      autodj: this.autodj,
      gapMs,
      handBackMs: options.liveSilentHandBackMs ?? 5000,
    };
    this.sources = new SourceSwitch(air, this.live, options.relay);
  }

  // --- NowPlayingSource -------------------------------------------------------------------------

  nowPlaying(): NowPlaying {
    return {
      current_track: { ...this.announcer.track },
      is_live: this.sources.isLive,
      listeners: this.listenerCount() + this.listeners.relayed,
      stream_clock: roundClock(this.broadcaster.clock),
    };
  }

  streamUrl(origin: string): string {
    const base = this.options.config.publicUrl ?? origin;
    return `${base.replace(/\/+$/, '')}/stream`;
  }

  onChange(listener: (np: NowPlaying) => void): () => void {
    return this.announcer.onChange(listener);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.readSettings();
    this.sources.relay.start();
    await this.autodj.prepare();
    // The first item's decoder gets a moment to start, so the station opens with audio, not silence.
    for (let waited = 0; !this.autodj.ready && waited < FIRST_AUDIO_WAIT_MS; waited += 20) await sleep(20);
    this.outputs.startEncoder(this.clock.slot);
    this.clock.start();
    this.tick();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.listeners.start();
    // Started means on the air: the clock runs (with the first audio, or silence past the wait).
    for (
      let waited = 0;
      this.running && this.clock.slot === 0 && waited < FIRST_AUDIO_WAIT_MS + 1000;
      waited += 20
    )
      await sleep(20);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.announcer.stop();
    this.listeners.stop();
    this.outputs.closeMounts();
    this.live.session?.abort?.();
    this.autodj.stop();
    this.outputs.stopEncoder();
    this.sources.live.stop();
    await this.sources.relay.stop();
    await this.storeMinute();
  }

  // --- engine features ---------------------------------------------------------------------------

  /** The main mount (/stream): the highest bitrate on. */
  get broadcaster(): Broadcaster {
    return this.outputs.main;
  }

  /** Listener figures: now, today's peak, listening time (stored each minute). */
  get meter(): ListenerMeter {
    return this.listeners.meter;
  }

  bitrateKbps(): number {
    return this.broadcaster.bitrateKbps;
  }

  /** The relays' listeners now: counted in now playing and the stored figures like our own. */
  setRelayListeners(count: number): void {
    this.listeners.setRelayed(count);
  }

  /** Live programmes on and off air, dead air, a failing source: for staff to be told. */
  onEvent(listener: (event: AirEvent) => void): () => void {
    return this.announcer.onEvent(listener);
  }

  /** Subtitle lines of AutoDJ media as they play (the subtitles feature stores them). */
  onCue(listener: (cue: Cue) => void): () => void {
    return this.announcer.onCue(listener);
  }

  /**
   * The mix as it goes to the encoder (44.1 kHz interleaved stereo float, read-only) and the stream-clock
   * second of its first sample: what the speech recogniser hears. A listener must return at once.
   */
  onPcm(listener: (pcm: Float32Array, clock: number) => void): () => void {
    return this.outputs.onPcm(listener);
  }

  /** Adds playable items to the AutoDJ's library, played back to back while no schedule is set. */
  addSource(provider: LibraryProvider): void {
    this.library.addSource(provider);
  }

  /**
   * Relays a station elsewhere in place of the AutoDJ (null: the AutoDJ again). Its stream is pulled through
   * `station` and decoded through the live chain; it takes the air with its first second of audio, at once,
   * with its title from its status. The AutoDJ covers while it fails or is silent, until it is back; a live
   * source takes over from it as from the AutoDJ.
   */
  async relay(station: UpstreamStation | null): Promise<void> {
    await this.sources.relay.set(station, this.clock.producedClock, this.running);
  }

  /** The station elsewhere relayed now, or null. */
  get relayed(): UpstreamStation | null {
    return this.sources.relay.station;
  }

  /** What plays next from now on: the station's schedule. */
  setProgramming(programming: Programming): void {
    this.autodj.setProgramming(programming);
  }

  /** Broadcast frames between two stream-clock seconds (for listener clips); the last few minutes are kept. */
  framesBetween(from: number, to: number): TimedFrame[] {
    return this.broadcaster.history.between(from, to);
  }

  /** The bitrates on air now (kbps), the main one first. */
  bitrates(): readonly number[] {
    return this.outputs.bitrates();
  }

  /** The mount of one bitrate, or null when that bitrate is off. */
  mount(kbps: number): Broadcaster | null {
    return this.outputs.mount(kbps);
  }

  /** Listeners on every mount (relays not counted). */
  listenerCount(): number {
    return this.listeners.count();
  }

  /** Mixes audio ahead, then broadcasts the encoded frames due by now (plus one tick). Public for tests. */
  tick(): void {
    this.clock.tick();
  }

  /** The password live sources must give (see SourcePasswordStore). */
  sourcePassword(): Promise<string | null> {
    return this.options.storage.sourcePassword();
  }

  /** Writes the minute that just ended; a new station day starts a fresh peak. */
  async storeMinute(): Promise<void> {
    await this.listeners.storeMinute();
  }

  private async readSettings(): Promise<void> {
    const read = await this.options.storage.audioSettings().catch(() => this.settings);
    const bitrates = STREAM_BITRATES.filter((kbps) => read.bitrates.includes(kbps));
    const changed =
      bitrates.join() !== this.settings.bitrates.join() ||
      read.true_peak_dbtp !== this.settings.true_peak_dbtp;
    this.settings = { ...read, bitrates: bitrates.length ? bitrates : [STREAM_BITRATES[0]] };
    // New bitrates or a new ceiling: a new encoder run (a moment's silence), mounts turned off close.
    if (changed && this.outputs.encoding) this.outputs.startEncoder(this.clock.slot);
  }

  private station(): { name: string; timeZone: string } {
    return this.options.station?.() ?? this.options.config.station;
  }
}
