import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_AUDIO_SETTINGS, type AudioSettings } from '../../common/audio-settings.js';
import { STREAM_BITRATES, type NowPlaying, type Track } from '../../common/radio.js';
import type { Config } from '../config.js';
import { AutoDj, type Cue } from './autodj.js';
import { Broadcaster, type BroadcasterOptions } from './broadcaster.js';
import { LiveDecoder } from './decoder.js';
import { MultiEncoder } from './encoder.js';
import type { TimedFrame } from './frame-history.js';
import { mediaFolderProvider, type LibraryProvider } from './library.js';
import { ListenerMeter } from './listener-stats.js';
import { LiveInput, type LiveSession } from './live-input.js';
import { silentFrame } from './mp3-frames.js';
import type { NowPlayingSource } from './now-playing-source.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from './pcm.js';
import { LibraryProgramming, type Programming } from './programming.js';
import { readSendQueues, type QueueFamily } from './send-queues.js';
import type { RadioStorage } from './storage.js';
import { TEST_TRANSMISSION_FILE, TEST_TRANSMISSION_LOUDNESS_LUFS } from './test-transmission.js';
import { UpstreamRelay, type UpstreamRelayOptions, type UpstreamStation } from './upstream-relay.js';

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
  relay?: Pick<UpstreamRelayOptions, 'retryMs' | 'maxRetryMs' | 'connectTimeoutMs' | 'stallMs'>;
}

/** What happened on the air that staff should hear of (the notifications feature sends it on). */
export type AirEvent =
  /** `clock`: the stream-clock second at which the live source's audio starts (or stops) airing. */
  | { type: 'live_on_air'; name: string; clock: number }
  | { type: 'live_off_air'; name: string; clock: number }
  /** `external`: a relayed station elsewhere, `title` its address. */
  | { type: 'dead_air'; source: 'live' | 'autodj' | 'external'; seconds: number; title: string }
  | { type: 'dead_air_ended'; source: 'live' | 'external'; name: string }
  | { type: 'source_failed'; source: string; reason: string };

/**
 * How often listeners that do not read are looked for: each look reads the kernel's connection table, which
 * costs CPU by the machine's memory, not by its listeners (send-queues.ts).
 */
const STALL_CHECK_MS = 5000;

/**
 * Listeners get the main mount's audio 0.4 s at a time, a lower bitrate the same bytes (up to a second's
 * worth): their players hold seconds, and a write costs the station more than the bytes in it. Every 0.2 s,
 * serving 2,000 listeners cost 1.06 to 1.29 times Icecast's CPU; every 0.4 s, 0.66 to 0.87 (bench/listeners).
 */
const LISTENER_WRITE_SECONDS = 0.4;

/** A live source counts as having sound again after this long above the silence level. */
const SOUND_BACK_SECONDS = 0.5;

/**
 * After a stall (a busy event loop, a machine that stopped) the audio missed is mixed and sent at once, up to
 * this much: listeners' players refill what they played from their buffer meanwhile, and the stream stays on
 * the wall clock, so programmes start on time. Past it the stream carries on from where it was (the audio of
 * the stall is skipped); what is due at a set time is placed by wall time, so it still starts on time.
 */
const MAX_CATCH_UP_SECONDS = 5;
/** Audio is mixed and handed to the encoder this far ahead of the broadcast, so its frames are there in time. */
const LEAD_SLOTS = Math.ceil(0.5 / FRAME_SECONDS);
/** The true-peak target is kept with this much room under it: the limiter sees samples, MP3 adds overshoot. */
const TRUE_PEAK_MARGIN_DB = 1.5;
/** Samples (both channels) of one slot in the mix. */
const SLOT_SAMPLES = FRAME_SAMPLES * CHANNELS;
/** How long the station waits for its first item's audio at start before it opens with silence. */
const FIRST_AUDIO_WAIT_MS = 2000;
/** A live source's decoded audio kept ready; more waits in its queue (and then in the encoder's TCP). */
const LIVE_AHEAD_SECONDS = 1;
/** A relayed station's decoded audio kept ready (network jitter), and gathered before it takes the air. */
const RELAY_AHEAD_SECONDS = 2;
const RELAY_PREROLL_SECONDS = 1;

/**
 * The built-in station: AutoDJ, live input and a relayed station elsewhere feeding one broadcaster on one
 * stream clock, paced in real time by MP3 frame durations, with listener figures measured as listeners come
 * and go.
 */
export class RadioEngine implements NowPlayingSource {
  /** The main mount (/stream): the highest bitrate on. */
  broadcaster: Broadcaster;
  /** Every bitrate's mount; those turned off get no audio and no listeners. */
  private readonly mounts = new Map<number, Broadcaster>();
  private encoder: MultiEncoder | null = null;
  private settings: AudioSettings = DEFAULT_AUDIO_SETTINGS;
  /** Frames broadcast (every mount), and frames of audio mixed and handed to the encoder. */
  private slot = 0;
  private producedSlot = 0;
  private encoderWaitSince: number | null = null;
  private liveDecoder: { session: LiveSession; decoder: LiveDecoder; ended: boolean } | null = null;
  readonly live: LiveInput;
  readonly meter = new ListenerMeter();
  private readonly autodj: AutoDj;
  private readonly library: LibraryProgramming;
  private readonly tickMs: number;
  private readonly stallCheckMs: number;
  private stallTimer: NodeJS.Timeout | null = null;
  private readonly listenerPushMs: number;
  private readonly liveGapMs: number;
  private readonly liveSilentHandBackMs: number;
  private readonly silence = new Map(STREAM_BITRATES.map((kbps) => [kbps, silentFrame(kbps)]));
  private starvedSince: number | null = null;
  private track: Track;
  private isLive = false;
  /** Listeners on the Icecast relays pulling /stream (RELAY_URLS), from their status pages. */
  private relayListeners = 0;
  private wallBase = 0;
  /** Until then, while nothing is broadcast yet, the clock waits for the encoder's first frames. */
  private firstFramesBy = 0;
  private timer: NodeJS.Timeout | null = null;
  private minuteTimer: NodeJS.Timeout | null = null;
  private pushTimer: NodeJS.Timeout | null = null;
  private lastPush = 0;
  private day = 0;
  private running = false;
  private readonly changeListeners = new Set<(np: NowPlaying) => void>();
  private readonly cueListeners = new Set<(cue: Cue) => void>();
  private readonly pcmListeners = new Set<(pcm: Float32Array, clock: number) => void>();
  private readonly eventListeners = new Set<(event: AirEvent) => void>();
  /** One frame of a live source, measured before it airs. */
  private readonly liveFrame = new Float32Array(SLOT_SAMPLES);
  /** Seconds the source on air has been under the silence level, and the live source's sound since. */
  private quietSeconds = 0;
  private soundSeconds = 0;
  /** Presenters disconnected at their programme's end. */
  private readonly endedSessions = new WeakSet<LiveSession>();
  /** A live source replaced by the rotation for its silence, until it has sound again. */
  private liveDead = false;
  /** A station elsewhere relayed in place of the AutoDJ (the Station tab's stream source), or null. */
  private upstream: UpstreamRelay | null = null;
  private upstreamOff: (() => void) | null = null;
  /** Its audio is what airs (no live source over it). */
  private relayOnAir = false;
  /** Replaced by the rotation for its silence until it has sound again, as a live source is. */
  private relayDead = false;
  private relayQuiet = 0;
  private relaySound = 0;
  private relayStarvedSince: number | null = null;
  /** Staff were told it failed or fell silent; they are told again when it is back on air. */
  private relayFailing = false;
  private readonly relayFrame = new Float32Array(SLOT_SAMPLES);

  constructor(private readonly options: RadioEngineOptions) {
    const { config } = options;
    this.tickMs = options.tickMs ?? 200;
    this.stallCheckMs = options.stallCheckMs ?? STALL_CHECK_MS;
    this.listenerPushMs = options.listenerPushMs ?? 5000;
    this.liveGapMs = options.liveGapMs ?? 400;
    this.liveSilentHandBackMs = options.liveSilentHandBackMs ?? 5000;
    this.track = {
      title: `${config.station.name} Live`,
      artist: config.station.name,
      artwork_url: null,
      started_at: 0,
    };
    const events = {
      onJoin: () => {
        const id = this.meter.join();
        this.listenersChanged();
        return id;
      },
      onLeave: (id: number) => {
        this.meter.leave(id);
        this.listenersChanged();
      },
    };
    // The same bytes at every bitrate, so a lower one is written to less often.
    const minWriteBytes = ((STREAM_BITRATES[0] * 1000) / 8) * LISTENER_WRITE_SECONDS * 0.9;
    for (const kbps of STREAM_BITRATES) {
      const clips = kbps === STREAM_BITRATES[0];
      this.mounts.set(kbps, new Broadcaster({ minWriteBytes, ...options.broadcaster, clips }, events));
    }
    this.broadcaster = this.mounts.get(STREAM_BITRATES[0])!;
    for (const mount of this.mounts.values()) mount.setTitle(this.streamTitle());
    this.live = new LiveInput({ onMetadata: (session) => this.liveMetadata(session) });
    this.library = new LibraryProgramming(options.mediaDir ? [mediaFolderProvider(options.mediaDir)] : []);
    this.autodj = new AutoDj({
      programming: this.library,
      clock: {
        // The slot being broadcast now is at (now − wallBase); a slot's audio is on the air at its own time.
        wallAt: (clock) => this.wallAt(clock),
        clockAt: (wall) => (wall - Date.now() + performance.now() - this.wallBase) / 1000,
      },
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
        this.setTrack(
          {
            title: t.title,
            artist: t.artist,
            artwork_url: t.artworkUrl,
            started_at: round(t.startedAt),
          },
          t.startedAt,
        ),
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
      is_live: this.isLive || this.relayOnAir,
      listeners: this.listenerCount() + this.relayListeners,
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
    await this.readSettings();
    this.upstream?.start();
    await this.autodj.prepare();
    // The first item's decoder gets a moment to start, so the station opens with audio, not silence.
    for (let waited = 0; !this.autodj.ready && waited < FIRST_AUDIO_WAIT_MS; waited += 20) await sleep(20);
    this.startEncoder();
    this.wallBase = performance.now() - this.broadcaster.clock * 1000;
    this.firstFramesBy = performance.now() + FIRST_AUDIO_WAIT_MS;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.stallTimer = setInterval(() => void this.dropStalled(), this.stallCheckMs);
    this.day = this.options.storage.startOfDay(new Date(), this.station().timeZone).getTime();
    this.scheduleMinute();
    // Started means on the air: the clock runs (with the first audio, or silence past the wait).
    for (let waited = 0; this.running && this.slot === 0 && waited < FIRST_AUDIO_WAIT_MS + 1000; waited += 20)
      await sleep(20);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of [this.timer, this.pushTimer, this.stallTimer]) if (timer) clearInterval(timer);
    this.stallTimer = null;
    if (this.minuteTimer) clearTimeout(this.minuteTimer);
    this.timer = this.pushTimer = this.minuteTimer = null;
    for (const mount of this.mounts.values()) mount.closeAll();
    this.live.session?.abort?.();
    this.autodj.stop();
    this.encoder?.close();
    this.encoder = null;
    this.liveDecoder?.decoder.close();
    this.liveDecoder = null;
    await this.upstream?.stop();
    await this.storeMinute();
  }

  /** One read of the kernel's send queues for the listeners of every mount (they share the web server's port). */
  private async dropStalled(): Promise<void> {
    const families = new Set<QueueFamily>();
    let port = 0;
    for (const mount of this.mounts.values()) {
      const sources = mount.queueSources();
      if (!sources) continue;
      port ||= sources.port;
      for (const family of sources.families) families.add(family);
    }
    if (!port) return;
    const queues = await readSendQueues(port, { families }).catch(() => null);
    if (!queues) return;
    let dropped = 0;
    for (const mount of this.mounts.values()) dropped += mount.dropStalledListeners(queues);
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

  /** Live programmes on and off air, dead air, a failing source: for staff to be told. */
  onEvent(listener: (event: AirEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private emit(event: AirEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  /** Subtitle lines of AutoDJ media as they play (the subtitles feature stores them). */
  onCue(listener: (cue: Cue) => void): () => void {
    this.cueListeners.add(listener);
    return () => this.cueListeners.delete(listener);
  }

  /**
   * The mix as it goes to the encoder (44.1 kHz interleaved stereo float, read-only) and the stream-clock
   * second of its first sample: what the speech recogniser hears. A listener must return at once.
   */
  onPcm(listener: (pcm: Float32Array, clock: number) => void): () => void {
    this.pcmListeners.add(listener);
    return () => this.pcmListeners.delete(listener);
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
    const previous = this.upstream;
    this.upstreamOff?.();
    this.upstreamOff = null;
    if (this.relayOnAir) {
      this.relayOnAir = false;
      this.autodj.announce(this.producedSlot * FRAME_SECONDS);
    }
    this.relayDead = this.relayFailing = false;
    this.relayQuiet = 0;
    this.relayStarvedSince = null;
    this.upstream = station
      ? new UpstreamRelay(station, {
          ...this.options.relay,
          level: () => ({ targetLufs: this.settings.loudness_target_lufs, limit: this.limit() }),
          aheadSeconds: RELAY_AHEAD_SECONDS,
          log: (level, message) => this.options.log?.[level](message),
          onFailure: (reason) => this.relayFailed(reason),
        })
      : null;
    if (station) this.upstreamOff = station.onChange(() => this.relayTitleChanged());
    if (this.running) this.upstream?.start();
    await previous?.stop();
  }

  /** The station elsewhere relayed now, or null. */
  get relayed(): UpstreamStation | null {
    return this.upstream?.station ?? null;
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
    return this.encoder?.bitrates ?? this.settings.bitrates;
  }

  /** The mount of one bitrate, or null when that bitrate is off. */
  mount(kbps: number): Broadcaster | null {
    return this.bitrates().includes(kbps) ? (this.mounts.get(kbps) ?? null) : null;
  }

  /** Listeners on every mount (relays not counted). */
  listenerCount(): number {
    let count = 0;
    for (const mount of this.mounts.values()) count += mount.listenerCount;
    return count;
  }

  /** Mixes audio ahead, then broadcasts the encoded frames due by now (plus one tick). Public for tests. */
  tick(): void {
    const now = performance.now();
    let target = (now - this.wallBase) / 1000;
    if (target - this.broadcaster.clock > (this.options.maxCatchUpSeconds ?? MAX_CATCH_UP_SECONDS)) {
      this.wallBase = now - this.broadcaster.clock * 1000;
      target = this.broadcaster.clock;
    }
    target += this.tickMs / 1000;
    const targetSlot = Math.ceil(target / FRAME_SECONDS);
    this.autodj.check(now);
    this.liveDecoder?.decoder.check(now);
    this.upstream?.check(now);
    this.encoder?.check(now, this.slot);
    this.produce(targetSlot + LEAD_SLOTS, now);
    const starting = this.slot === 0;
    while (this.slot < targetSlot) {
      const taken = this.encoder?.take(this.slot) ?? { state: 'lost' as const };
      if (taken.state === 'later' && this.slot === 0 && now < this.firstFramesBy) {
        // The encoder is starting and nobody hears a wait yet: the clock starts with its first audio, rather
        // than standing still, then jumping ahead over its first frames with silence.
        this.wallBase = now;
        break;
      }
      if (taken.state === 'later') {
        // Frames a moment late are waited for; longer, the slot goes silent so players hear no gap.
        this.encoderWaitSince ??= now;
        if (now - this.encoderWaitSince < this.liveGapMs) break;
      } else this.encoderWaitSince = null;
      for (const kbps of this.bitrates()) {
        const frame =
          taken.state === 'ready' ? taken.frames[this.encoder!.bitrates.indexOf(kbps)] : undefined;
        this.mounts.get(kbps)!.push(frame ?? this.silence.get(kbps as 128)!);
      }
      this.slot++;
    }
    // The clock runs from here: web instances carry it on from this moment, not from the 0 of the start.
    if (starting && this.slot > 0) this.emitChange();
    for (const kbps of this.bitrates()) this.mounts.get(kbps)!.flush();
  }

  /** Mixes the source on air up to `untilSlot` and hands it to the encoder. */
  private produce(untilSlot: number, now: number): void {
    const slots = untilSlot - this.producedSlot;
    if (slots <= 0) return;
    const pcm = new Float32Array(slots * FRAME_SAMPLES * CHANNELS);
    let made = 0;
    while (made < slots) {
      const clock = (this.producedSlot + made) * FRAME_SECONDS;
      if (!this.mix(pcm, made * FRAME_SAMPLES, clock, now)) break;
      made++;
    }
    if (made === 0) return;
    const mixed = pcm.subarray(0, made * FRAME_SAMPLES * CHANNELS);
    this.encoder?.write(this.producedSlot, mixed);
    for (const listener of this.pcmListeners) listener(mixed, this.producedSlot * FRAME_SECONDS);
    this.producedSlot += made;
  }

  /**
   * One frame's audio from the live source when it is on air, else a relayed station elsewhere or the AutoDJ.
   * False while a live encoder lags (briefly: a longer gap is silence); an encoder silent past the hand-back
   * time gives the air back until it sends again.
   */
  private mix(out: Float32Array, at: number, clock: number, now: number): boolean {
    const session = this.live.session;
    if (session?.onAir && !this.heldBack(session, clock)) {
      const live = this.liveFor(session);
      if (live.decoder.available >= FRAME_SAMPLES) {
        this.starvedSince = null;
        this.liveFrame.fill(0);
        live.decoder.mixInto(this.liveFrame, 0, FRAME_SAMPLES);
        if (this.liveHeard(this.liveFrame, session, clock)) {
          if (!this.isLive) this.goLive(session, clock);
          for (let i = 0; i < SLOT_SAMPLES; i++) out[at * CHANNELS + i]! += this.liveFrame[i]!;
          // A station elsewhere under the live source keeps up with its own clock, ready to be heard again.
          this.upstream?.skip(FRAME_SAMPLES);
          return true;
        }
        return this.underneath(out, at, clock, now);
      }
      if (!live.decoder.exhausted) {
        this.starvedSince ??= now;
        if (now - this.starvedSince < this.liveSilentHandBackMs) {
          if (!this.isLive && !this.liveDead) this.goLive(session, clock);
          // A short gap is waited out; a longer one is silence, so players hear no gap and the clock keeps time.
          if (!this.liveDead) return now - this.starvedSince >= this.liveGapMs;
        } else if (this.isLive) {
          this.isLive = false;
          this.autodj.announce(clock);
          this.options.log?.warn('live source connected but silent; AutoDJ continues until it sends again');
          this.emit({
            type: 'source_failed',
            source: this.liveName(session),
            reason: 'it stopped sending audio',
          });
        }
        return this.underneath(out, at, clock, now);
      }
      this.starvedSince = null;
      this.live.release(session);
      live.decoder.close();
      this.liveDecoder = null;
      this.liveDead = false;
      this.options.log?.info('live source ended; AutoDJ continues');
      this.emit({ type: 'live_off_air', name: this.liveName(session), clock });
    }
    if (this.isLive) {
      this.isLive = false;
      this.autodj.announce(clock);
    }
    return this.underneath(out, at, clock, now);
  }

  /**
   * What airs when no live source does: a relayed station elsewhere once it has audio, at once (no
   * crossfade), else the AutoDJ. A short gap in its audio is waited out and a longer one is silence; silent
   * past the hand-back time, disconnected, or under the silence level for the silence time, it gives the air
   * to the AutoDJ until it has sound again.
   */
  private underneath(out: Float32Array, at: number, clock: number, now: number): boolean {
    const relay = this.upstream;
    if (!relay) return this.rotation(out, at, clock);
    const wanted =
      this.relayOnAir || this.relayDead ? FRAME_SAMPLES : Math.round(RELAY_PREROLL_SECONDS * SAMPLE_RATE);
    if (relay.available >= wanted) {
      this.relayStarvedSince = null;
      this.relayFrame.fill(0);
      relay.mixInto(this.relayFrame, 0, FRAME_SAMPLES);
      if (this.relayHeard(this.relayFrame, clock)) {
        if (!this.relayOnAir) this.relayOn(clock);
        for (let i = 0; i < SLOT_SAMPLES; i++) out[at * CHANNELS + i]! += this.relayFrame[i]!;
        return true;
      }
      return this.rotation(out, at, clock);
    }
    if (this.relayOnAir && relay.streaming) {
      this.relayStarvedSince ??= now;
      const waited = now - this.relayStarvedSince;
      // A short gap is waited out; a longer one is silence, so players hear no gap and the clock keeps time.
      if (waited < this.liveSilentHandBackMs) return waited >= this.liveGapMs;
      this.relayOff(clock, 'it stopped sending audio');
    } else if (this.relayOnAir) this.relayOff(clock, null); // its connection ended: the relay says why
    return this.rotation(out, at, clock);
  }

  /** Whether a relayed frame airs: as for a live source, not while dead air lasts, until it has sound again. */
  private relayHeard(frame: Float32Array, clock: number): boolean {
    const quiet = levelDbfs(frame, 0, SLOT_SAMPLES) < this.settings.silence_threshold_dbfs;
    if (this.relayDead) {
      this.relaySound = quiet ? 0 : this.relaySound + FRAME_SECONDS;
      if (this.relaySound < SOUND_BACK_SECONDS) return false;
      this.relayDead = false;
      this.relayQuiet = 0;
      return true;
    }
    this.relayQuiet = quiet ? this.relayQuiet + FRAME_SECONDS : 0;
    if (this.relayQuiet < this.settings.silence_seconds) return true;
    this.relayDead = true;
    this.relaySound = 0;
    const address = this.upstream!.station.address;
    this.options.log?.warn(
      { seconds: this.relayQuiet, address },
      'dead air: the station elsewhere is silent; the rotation covers it',
    );
    if (this.relayOnAir) {
      this.relayOnAir = false;
      this.autodj.announce(clock);
    }
    if (!this.relayFailing) {
      this.relayFailing = true;
      this.emit({
        type: 'dead_air',
        source: 'external',
        seconds: Math.round(this.relayQuiet),
        title: address,
      });
    }
    return false;
  }

  /** The relayed station takes the air: its title from its status, on every mount from this second. */
  private relayOn(clock: number): void {
    this.relayOnAir = true;
    this.relayStarvedSince = null;
    const address = this.upstream!.station.address;
    this.options.log?.info({ address }, 'station elsewhere on air');
    if (this.relayFailing) {
      this.relayFailing = false;
      this.emit({ type: 'dead_air_ended', source: 'external', name: address });
    }
    this.setTrack(this.relayTrack(clock), clock);
  }

  /** The relayed station gives the air to the AutoDJ; `reason` tells staff why (null: told already). */
  private relayOff(clock: number, reason: string | null): void {
    this.relayOnAir = false;
    this.relayStarvedSince = null;
    this.autodj.announce(clock);
    if (reason) this.relayFailed(reason);
  }

  /** Once per outage: staff are told that the station elsewhere failed and the rotation covers it. */
  private relayFailed(reason: string): void {
    if (this.relayFailing || !this.upstream) return;
    this.relayFailing = true;
    const address = this.upstream.station.address;
    this.options.log?.warn({ address, reason }, 'station elsewhere failed; the rotation covers it');
    this.emit({ type: 'source_failed', source: `the station elsewhere (${address})`, reason });
  }

  /** Its status named another title: on air from now, while its audio airs. */
  private relayTitleChanged(): void {
    if (!this.relayOnAir || !this.upstream) return;
    const next = this.relayTrack(this.broadcaster.clock);
    const { title, artist, artwork_url } = this.track;
    if (next.title === title && next.artist === artist && next.artwork_url === artwork_url) return;
    this.setTrack(next);
  }

  private relayTrack(clock: number): Track {
    const { title, artist, artwork_url } = this.upstream!.station.nowPlaying().current_track;
    return { title, artist, artwork_url, started_at: round(clock) };
  }

  /**
   * A presenter let in before their programme waits, the rotation playing, and takes the air on its start
   * second; at its end they are disconnected and the rotation goes on.
   */
  private heldBack(session: LiveSession, clock: number): boolean {
    const by = session.info.connectedBy;
    if (by?.kind !== 'presenter') return false;
    const wall = this.wallAt(clock);
    if (wall < by.startsAt.getTime()) {
      session.keepLast(LIVE_AHEAD_SECONDS);
      return true;
    }
    if (wall < by.endsAt.getTime()) return false;
    if (!session.done) {
      if (!this.endedSessions.has(session)) {
        this.endedSessions.add(session);
        this.options.log?.info({ presenter: by.username }, 'programme ended; presenter disconnected');
        session.abort?.();
      }
      session.keepLast(0);
    }
    return !session.done;
  }

  /** Wall time (epoch ms) at which stream-clock second `clock` is on the air. */
  private wallAt(clock: number): number {
    return Date.now() + clock * 1000 - (performance.now() - this.wallBase);
  }

  /**
   * Whether a live frame airs: not while the source has been under the silence level for the silence time
   * (dead air: the rotation covers it, staff are told), until it has had sound for half a second again.
   */
  private liveHeard(frame: Float32Array, session: LiveSession, clock: number): boolean {
    const quiet = levelDbfs(frame, 0, SLOT_SAMPLES) < this.settings.silence_threshold_dbfs;
    if (this.liveDead) {
      this.soundSeconds = quiet ? 0 : this.soundSeconds + FRAME_SECONDS;
      if (this.soundSeconds < SOUND_BACK_SECONDS) return false;
      this.liveDead = false;
      this.quietSeconds = 0;
      this.options.log?.info('live source has sound again; back on air');
      this.emit({ type: 'dead_air_ended', source: 'live', name: this.liveName(session) });
      return true;
    }
    this.quietSeconds = quiet ? this.quietSeconds + FRAME_SECONDS : 0;
    if (this.quietSeconds < this.settings.silence_seconds) return true;
    this.liveDead = true;
    this.soundSeconds = 0;
    if (this.isLive) {
      this.isLive = false;
      this.autodj.announce(clock);
    }
    this.options.log?.warn(
      { seconds: this.quietSeconds },
      'dead air: the live source is silent; the rotation covers it',
    );
    this.emit({
      type: 'dead_air',
      source: 'live',
      seconds: Math.round(this.quietSeconds),
      title: this.liveName(session),
    });
    return false;
  }

  /** One frame of the AutoDJ; an item silent for the silence time is dead air, and the next one plays. */
  private rotation(out: Float32Array, at: number, clock: number): boolean {
    this.autodj.read(out, at, FRAME_SAMPLES, clock);
    if (this.liveDead) return true;
    const quiet = levelDbfs(out, at * CHANNELS, SLOT_SAMPLES) < this.settings.silence_threshold_dbfs;
    this.quietSeconds = quiet ? this.quietSeconds + FRAME_SECONDS : 0;
    if (this.quietSeconds >= this.settings.silence_seconds) {
      const title = this.track.title;
      this.options.log?.warn({ title }, 'dead air: the item on air is silent; the next one plays');
      this.emit({ type: 'dead_air', source: 'autodj', seconds: Math.round(this.quietSeconds), title });
      this.quietSeconds = 0;
      this.autodj.skip();
    }
    return true;
  }

  private liveName(session: LiveSession): string {
    return session.info.name?.trim() || `${this.station().name} Live`;
  }

  /** The live session's decoder, fed from its queue up to a second of audio ahead. */
  private liveFor(session: LiveSession): { decoder: LiveDecoder } {
    if (this.liveDecoder?.session !== session) {
      this.liveDecoder?.decoder.close();
      const decoder = new LiveDecoder(
        { targetLufs: this.settings.loudness_target_lufs, limit: this.limit() },
        {
          format: 'mp3',
          aheadSeconds: LIVE_AHEAD_SECONDS,
          log: (message, detail) => this.options.log?.warn(detail, message),
        },
      );
      this.liveDecoder = { session, decoder, ended: false };
    }
    const live = this.liveDecoder;
    // Fed by what it has decoded, not by what it has written back yet: an encoder sending faster than real
    // time waits in its own bounded queue (and TCP), never in the decoder's pipe.
    while (
      live.decoder.available < LIVE_AHEAD_SECONDS * SAMPLE_RATE &&
      live.decoder.inFlightSeconds < LIVE_AHEAD_SECONDS
    ) {
      const frame = session.nextFrame();
      if (!frame) break;
      live.decoder.write(frame.data, frame.duration);
    }
    if (session.done && !live.ended) {
      live.ended = true;
      live.decoder.end();
    }
    return live;
  }

  /** The master limiter's ceiling (linear sample peak) for the true-peak target. */
  private limit(): number {
    return 10 ** ((this.settings.true_peak_dbtp - TRUE_PEAK_MARGIN_DB) / 20);
  }

  private async readSettings(): Promise<void> {
    const read = await this.options.storage.audioSettings().catch(() => this.settings);
    const bitrates = STREAM_BITRATES.filter((kbps) => read.bitrates.includes(kbps));
    const changed =
      bitrates.join() !== this.settings.bitrates.join() ||
      read.true_peak_dbtp !== this.settings.true_peak_dbtp;
    this.settings = { ...read, bitrates: bitrates.length ? bitrates : [STREAM_BITRATES[0]] };
    // New bitrates or a new ceiling: a new encoder run (a moment's silence), mounts turned off close.
    if (changed && this.encoder) this.startEncoder();
  }

  private startEncoder(): void {
    // The audio mixed ahead for the encoder before it goes to the new one: only the restart's moment is lost.
    const written = this.encoder?.close();
    const { bitrates } = this.settings;
    this.encoder = new MultiEncoder({
      bitrates,
      limit: this.limit(),
      log: (message) => this.options.log?.warn(message),
    });
    this.encoder.start(this.slot, written);
    for (const [kbps, mount] of this.mounts) if (!(bitrates as number[]).includes(kbps)) mount.closeAll();
    this.broadcaster = this.mounts.get(bitrates[0]!)!;
  }

  private goLive(session: LiveSession, clock: number): void {
    this.isLive = true;
    // The relayed station under it takes the air afresh (its title again) when the live source leaves.
    this.relayOnAir = false;
    this.quietSeconds = 0;
    this.options.log?.info({ remote: session.info.remote }, 'live source on air');
    this.emit({ type: 'live_on_air', name: this.liveName(session), clock });
    this.setTrack(this.liveTrack(session, clock), clock);
  }

  private liveMetadata(session: LiveSession): void {
    if (this.isLive && this.live.session === session)
      this.setTrack(this.liveTrack(session, this.broadcaster.clock));
  }

  private liveTrack(session: LiveSession, clock: number): Track {
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
      started_at: round(clock),
    };
  }

  /** What plays from stream-clock second `from` (the ICY title changes there on every mount). */
  private setTrack(track: Track, from = this.broadcaster.clock): void {
    this.track = track;
    for (const mount of this.mounts.values()) mount.setTitle(this.streamTitle(), from);
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

/** RMS level of `length` samples from `from`, in dBFS (−Infinity for digital silence). */
function levelDbfs(samples: Float32Array, from: number, length: number): number {
  let sum = 0;
  for (let i = from; i < from + length; i++) sum += samples[i]! * samples[i]!;
  return 10 * Math.log10(sum / length);
}
