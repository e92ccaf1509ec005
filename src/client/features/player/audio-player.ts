import { releaseAudioFocus, takeAudioFocus } from '../../lib/audio-focus';
import {
  adaptiveStreamUrl,
  bitrateForScore,
  BUFFER_CHECK_INTERVAL_MS,
  BUFFER_LOW_AHEAD_S,
  BUFFER_LOW_SHOW_MS,
  clampVolume,
  MAX_RECONNECT_MESSAGE,
  PLAYER_VOLUME,
  preloadFor,
  QUALITY_SETTINGS,
  reconnectDelay,
  SILENT_PRELOAD_MS,
  volumeOnPlay,
  type NetworkQuality,
  type Quality,
} from '../../../common/player';
import { secondsBufferedAhead } from './buffer-hold';
import { StreamClockStore } from './stream-clock';
import {
  icecastEngine,
  preferredPlaybackMethod,
  type EngineFactory,
  type HeardMetadata,
  type PlaybackMethod,
  type StreamEngine,
} from './stream-engine';

/** The live stream's key in the page's audio focus. */
const LIVE_FOCUS = 'live';

export interface PlayerState {
  playing: boolean;
  /** Set on 'waiting', cleared on 'playing' (and shown for 2 s when the buffer runs low). */
  buffering: boolean;
  /** 0..1 */
  volume: number;
  quality: Quality;
  /** The StreamTitle the listener is hearing now (null until a metadata block is heard). */
  heardTitle: string | null;
  /** The listener asked for audio and has not pressed stop: a reconnect is under way while not playing. */
  wanted: boolean;
  /**
   * The audio the listener wants stopped or ran dry (the stream ended, failed, or is waiting for data) and
   * has not played again since: the connection indicator shows 'Slow Connection' at once.
   */
  stalled: boolean;
  method: PlaybackMethod;
}

export interface AudioPlayerOptions {
  engine?: EngineFactory;
  audio?: HTMLAudioElement;
  method?: PlaybackMethod;
  /** Sends the preload's warm-up request (a HEAD of the stream address). */
  warmUp?: (url: string, signal: AbortSignal) => Promise<unknown>;
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/**
 * SPEC.md section 4's audio player as a plain class (STYLE.md habit 5): states, buffering, volume,
 * autoplay, reconnect with backoff, buffer health and the silent preload. React reads it through
 * useSyncExternalStore; components only display.
 */
export class AudioPlayer {
  readonly audio: HTMLAudioElement;
  readonly clock: StreamClockStore;
  private state: PlayerState;
  /** The state as the page was served (prerendered): React hydrates with it, then renders the live one. */
  readonly initialState: PlayerState;
  private engine: StreamEngine;
  private readonly engineFactory: EngineFactory;
  private readonly warmUp: NonNullable<AudioPlayerOptions['warmUp']>;
  private readonly win: AudioPlayerOptions['window'];
  private streamUrl: string | null = null;
  private bitrate = QUALITY_SETTINGS.excellent.bitrate;
  private attempt = 0;
  private gaveUp = false;
  /** The engine holds the start until the quality's buffer has arrived: not playing yet, buffering. */
  private holding = false;
  private autoplayTried = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private bufferLowTimer: ReturnType<typeof setTimeout> | undefined;
  private bufferCheck: ReturnType<typeof setInterval> | undefined;
  private preload: { controller: AbortController; timer: ReturnType<typeof setTimeout> } | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly cleanups: (() => void)[] = [];

  constructor(options: AudioPlayerOptions = {}) {
    this.audio = options.audio ?? new Audio();
    this.engineFactory = options.engine ?? icecastEngine;
    this.warmUp = options.warmUp ?? warmUpStream;
    this.win = options.window ?? (typeof window === 'undefined' ? undefined : window);
    const method = options.method ?? preferredPlaybackMethod();
    this.state = {
      playing: false,
      buffering: false,
      volume: PLAYER_VOLUME.initial,
      quality: 'excellent',
      heardTitle: null,
      wanted: false,
      stalled: false,
      method,
    };
    this.initialState = this.state;
    this.audio.volume = PLAYER_VOLUME.initial;
    this.audio.preload = preloadFor('excellent');
    this.clock = new StreamClockStore(() => (this.state.playing ? this.audio.currentTime : null));
    this.engine = this.makeEngine(method);
    this.listenToAudio();
    this.listenToNetwork();
  }

  getState = (): PlayerState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setStreamUrl(url: string): void {
    const first = this.streamUrl === null;
    this.streamUrl = url;
    // Play was pressed before the address was known (a tap on the page as served): it starts now.
    if (first && this.state.wanted) this.start();
  }

  get hasStreamUrl(): boolean {
    return this.streamUrl !== null;
  }

  /** The current network quality picks the bitrate, the buffer, the preload and the reconnect delays. */
  setNetworkQuality(measure: NetworkQuality): void {
    this.bitrate = bitrateForScore(measure.bandwidth);
    this.audio.preload = preloadFor(measure.quality);
    this.update({ quality: measure.quality });
  }

  /** Pressing play: volume at least 0.8 and unmuted, then the stream starts. */
  play(): void {
    this.clearReconnect();
    this.attempt = 0;
    this.gaveUp = false;
    // The warm-up is left to finish: its connection is the one play's request picks up.
    this.stopSilentPreload();
    const volume = volumeOnPlay(this.state.volume);
    this.audio.muted = false;
    this.audio.volume = volume;
    this.update({ volume, wanted: true });
    // A sermon playing on the page pauses; one that starts later pauses the stream, which comes back after.
    takeAudioFocus(LIVE_FOCUS, { pause: () => void this.halt(), resume: () => this.play() });
    this.start();
  }

  async stop(): Promise<void> {
    releaseAudioFocus(LIVE_FOCUS);
    await this.halt();
  }

  private async halt(): Promise<void> {
    this.clearReconnect();
    this.gaveUp = false;
    this.holding = false;
    this.update({ wanted: false, playing: false, buffering: false, stalled: false });
    this.clock.reset();
    await this.engine.stop();
  }

  /** The play/stop button: stop while playing, otherwise (also while reconnecting) start afresh. */
  toggle(): void {
    if (this.state.playing) void this.stop();
    else this.play();
  }

  /** Autoplay is attempted once; when the browser blocks it the player stays paused until the listener acts. */
  tryAutoplay(): void {
    if (this.autoplayTried || !this.streamUrl) return;
    this.autoplayTried = true;
    this.play();
  }

  setVolume(volume: number): void {
    const v = clampVolume(volume);
    this.audio.volume = v;
    this.update({ volume: v });
  }

  /** Play is near (the pointer is over the button, or it has focus): get ready to start at once. */
  prepare(): void {
    this.engine.prepare?.();
    if (!this.state.wanted) this.startSilentPreload();
  }

  /**
   * The silent preload, stopped after 30 s: a HEAD of the stream address, not a listening connection. It
   * opens the connection (and the address's redirect, DNS and TLS) that play's request then reuses, and the
   * station does not count it as a listener; an audio element here would stream for 30 s, count as one, and
   * be thrown away when play opened its own connection (docs/decisions/010). After 30 s it is over (an idle
   * connection may be closed by then) and play coming near again warms again.
   */
  startSilentPreload(): void {
    if (this.preload || !this.streamUrl || this.state.wanted) return;
    const controller = new AbortController();
    // Only a head start: a failed warm-up changes nothing, play tries for itself.
    this.warmUp(adaptiveStreamUrl(this.streamUrl, this.bitrate), controller.signal).catch(() => {});
    const timer = setTimeout(() => this.stopSilentPreload(), SILENT_PRELOAD_MS);
    this.preload = { controller, timer };
  }

  get preloading(): boolean {
    return this.preload !== undefined;
  }

  dispose(): void {
    this.clearReconnect();
    this.preload?.controller.abort();
    this.stopSilentPreload();
    clearInterval(this.bufferCheck);
    clearTimeout(this.bufferLowTimer);
    for (const cleanup of this.cleanups) cleanup();
    void this.engine.stop();
    this.listeners.clear();
  }

  private start(): void {
    if (!this.streamUrl) return;
    const url = adaptiveStreamUrl(this.streamUrl, this.bitrate);
    // SPEC.md section 9: the buffer is the current quality's (2 s excellent ... 15 s poor), so a weak line
    // starts later but rides out its dips.
    this.engine.play(url, QUALITY_SETTINGS[this.state.quality].buffer).catch((error: unknown) => {
      console.warn('Audio playback failed', error);
      this.onEngineStopped();
    });
  }

  private makeEngine(method: PlaybackMethod): StreamEngine {
    return this.engineFactory(
      this.audio,
      {
        onMetadata: (metadata, timestampOffset) => this.onMetadata(metadata, timestampOffset),
        onStop: () => this.onEngineStopped(),
        // A live stream never ends by itself: its connection is gone, though buffered audio still plays.
        onStreamEnd: () => this.update({ stalled: this.state.wanted }),
        onHold: (holding) => this.onHold(holding),
        onWarn: (message) => this.onEngineWarning(message),
      },
      method,
    );
  }

  private onMetadata(metadata: HeardMetadata, _timestampOffset: number): void {
    if (metadata.StreamTitle !== undefined && metadata.StreamTitle !== this.state.heardTitle) {
      this.update({ heardTitle: metadata.StreamTitle || null });
    }
    if (metadata.StreamClock !== undefined)
      this.clock.heardAt(Number(metadata.StreamClock), this.audio.currentTime);
  }

  /** Audio errors are only logged. Where MSE cannot play this stream, the plain media element takes over. */
  private onEngineWarning(message: string): void {
    console.warn('Audio player:', message);
    if (this.state.method === 'mediasource' && /codec|mediasource|not supported|decode/i.test(message)) {
      this.update({ method: 'html5' });
      this.engine = this.makeEngine('html5');
    }
  }

  /** Held: buffering until the buffer is in. Let go: playing, if the element already is. */
  private onHold(holding: boolean): void {
    this.holding = holding;
    if (holding) this.update({ buffering: true });
    else if (!this.audio.paused) this.onPlaying();
  }

  /** On error or stream end, playing becomes false; if the listener still wants audio, reconnect. */
  private onEngineStopped(): void {
    this.holding = false;
    this.update({ playing: false, buffering: false, stalled: this.state.wanted });
    this.clock.reset();
    if (this.state.wanted) this.scheduleReconnect();
  }

  /** Exponential backoff from the current quality's delay, doubling, up to its max retries; then give up. */
  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    const delay = reconnectDelay(this.state.quality, this.attempt);
    if (delay === null) {
      console.warn(MAX_RECONNECT_MESSAGE);
      this.gaveUp = true;
      return;
    }
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.state.wanted) this.start();
    }, delay);
  }

  private clearReconnect(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private listenToAudio(): void {
    const on = (type: string, handler: () => void) => {
      this.audio.addEventListener(type, handler);
      this.cleanups.push(() => this.audio.removeEventListener(type, handler));
    };
    // While the start is held the element may already say 'playing', but its audio does not move yet.
    on('playing', () => {
      if (!this.holding) this.onPlaying();
    });
    // Waiting before the first audio is starting up; waiting while playing is the stream running dry.
    on('waiting', () => this.update({ buffering: true, stalled: this.state.stalled || this.state.playing }));
    on('error', () => {
      console.warn('Audio element error', this.audio.error?.code);
      this.update({ playing: false, stalled: this.state.wanted });
    });
    on('ended', () => this.update({ playing: false, stalled: this.state.wanted }));
  }

  private onPlaying(): void {
    this.attempt = 0;
    this.gaveUp = false;
    clearTimeout(this.bufferLowTimer);
    this.update({ playing: true, buffering: false, stalled: false });
    this.startBufferCheck();
  }

  /**
   * The station is reachable again (the network came back, or the station answered after a restart):
   * a listener who never pressed stop is reconnected, even after the retries ran out.
   */
  resumeIfWanted(): void {
    if (!this.state.wanted || this.state.playing || (this.reconnectTimer && !this.gaveUp)) return;
    this.clearReconnect();
    this.attempt = 0;
    this.gaveUp = false;
    this.start();
  }

  private listenToNetwork(): void {
    if (!this.win) return;
    const online = () => {
      this.clearReconnect();
      this.resumeIfWanted();
    };
    this.win.addEventListener('online', online);
    this.cleanups.push(() => this.win!.removeEventListener('online', online));
  }

  /** Every 5 s: under 1 s buffered ahead shows buffering for 2 s. */
  private startBufferCheck(): void {
    if (this.bufferCheck) return;
    this.bufferCheck = setInterval(() => {
      if (!this.state.playing) return;
      if (secondsBufferedAhead(this.audio) < BUFFER_LOW_AHEAD_S) {
        this.update({ buffering: true });
        clearTimeout(this.bufferLowTimer);
        this.bufferLowTimer = setTimeout(() => this.update({ buffering: false }), BUFFER_LOW_SHOW_MS);
      }
    }, BUFFER_CHECK_INTERVAL_MS);
  }

  private stopSilentPreload(): void {
    if (!this.preload) return;
    clearTimeout(this.preload.timer);
    this.preload = undefined;
  }

  private update(patch: Partial<PlayerState>): void {
    const next = { ...this.state, ...patch };
    if ((Object.keys(patch) as (keyof PlayerState)[]).every((k) => next[k] === this.state[k])) return;
    this.state = next;
    for (const l of this.listeners) l();
  }

  /** For tests and the reconnect indicator. */
  get reconnectAttempts(): number {
    return this.attempt;
  }

  get hasGivenUp(): boolean {
    return this.gaveUp;
  }
}

/** The preload's request: headers only, never from a cache (the stream's routes answer HEAD at once). */
function warmUpStream(url: string, signal: AbortSignal): Promise<unknown> {
  return fetch(url, { method: 'HEAD', cache: 'no-store', signal });
}
