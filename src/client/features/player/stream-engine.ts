import type IcecastMetadataPlayer from 'icecast-metadata-player';
import type { IcecastMetadataPlayerIcyOptionsWithCallbacks } from 'icecast-metadata-player';
import { holdUntilBuffered } from './buffer-hold';

/**
 * The stream engine under the audio player: icecast-metadata-player, which plays the MP3 through Media
 * Source Extensions and fires each ICY metadata block when the listener hears it. On iOS, and wherever
 * MSE cannot play MPEG audio, it plays through the plain <audio> element (the library's html5 method),
 * which keeps lock-screen controls and background playback.
 */

export interface HeardMetadata {
  StreamTitle?: string;
  /** Stream-clock second of this point in the audio (the station's ICY extension). */
  StreamClock?: string;
}

export interface EngineCallbacks {
  /** A metadata block reached the listener's ears; `timestampOffset` is its audio time in seconds. */
  onMetadata(metadata: HeardMetadata, timestampOffset: number): void;
  /** Playback ended for any reason other than our own stop (stream end, network loss, decode error). */
  onStop(): void;
  /**
   * The stream's connection ended other than by our own stop; the audio already received plays out
   * (seconds of it) before `onStop`.
   */
  onStreamEnd(): void;
  /** The start is held until the quality's buffer has arrived (true); the audio now moves (false). */
  onHold(holding: boolean): void;
  onWarn(message: string): void;
}

export type PlaybackMethod = 'mediasource' | 'html5';

export interface StreamEngine {
  readonly audio: HTMLAudioElement;
  /**
   * Starts the stream at `url`; its audio moves once `bufferSeconds` of it have arrived (with MSE: the plain
   * media element buffers as the browser sees fit). Resolves when the audio element is playing.
   */
  play(url: string, bufferSeconds: number): Promise<void>;
  /** Stops and releases the connection. */
  stop(): Promise<void>;
  /** Play is near (hover, focus): fetch what starting will need. */
  prepare?(): void;
}

export type EngineFactory = (
  audio: HTMLAudioElement,
  callbacks: EngineCallbacks,
  method: PlaybackMethod,
) => StreamEngine;

type IcecastModule = { default: typeof IcecastMetadataPlayer };

/** Seconds the stream library gathers before it starts the element (see `bufferLength` below). */
const LIBRARY_BUFFER_SECONDS = 0.5;
let loading: Promise<IcecastModule> | undefined;

/** Loads the player library (kept out of the first page load; fetched when play comes near). */
export function loadIcecastPlayer(): Promise<IcecastModule> {
  loading ??= import('icecast-metadata-player');
  return loading;
}

/** iPhone, iPad (also iPadOS reporting as a Mac with touch) and iPod. */
export function isIOS(
  nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> | undefined = globalThis.navigator,
): boolean {
  if (!nav) return false;
  return (
    /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1)
  );
}

/** MSE where it can play MPEG audio and we are not on iOS; the plain media element otherwise. */
export function preferredPlaybackMethod(): PlaybackMethod {
  if (isIOS()) return 'html5';
  const ms = (globalThis as { MediaSource?: { isTypeSupported(type: string): boolean } }).MediaSource;
  return ms?.isTypeSupported('audio/mpeg') ? 'mediasource' : 'html5';
}

/** The real engine. */
export const icecastEngine: EngineFactory = (audio, callbacks, method) => {
  let player: IcecastMetadataPlayer | undefined;
  let stopping = false;
  let releaseHold = () => {};
  return {
    audio,
    async play(url, bufferSeconds) {
      // Started in the listener's gesture (iOS allows audio only there), and with its rejection handled:
      // the library's own start call on a paused element has no catch and would surface as a page error.
      prime(audio);
      const { default: Player } = await loadIcecastPlayer();
      releaseHold();
      if (player) {
        stopping = true;
        await player.stop();
        player.detachAudioElement();
      }
      stopping = false;
      const options: IcecastMetadataPlayerIcyOptionsWithCallbacks = {
        audioElement: audio,
        metadataTypes: ['icy'],
        playbackMethod: method,
        // Reconnects follow SPEC.md's backoff in the audio player, not the library's own.
        retryTimeout: 0,
        // The library's own start threshold stays short: it also trims the audio behind the play head by it,
        // and past 5 s that trim reaches ahead of the play head (its MediaSourcePlayer). The quality's
        // buffer is held below instead.
        bufferLength: LIBRARY_BUFFER_SECONDS,
        enableLogging: false,
        onMetadata: (metadata, timestampOffset) =>
          callbacks.onMetadata(metadata as HeardMetadata, timestampOffset),
        onStop: () => {
          releaseHold();
          if (!stopping) callbacks.onStop();
        },
        onStreamEnd: () => {
          if (!stopping) callbacks.onStreamEnd();
        },
        onWarn: (...messages) => callbacks.onWarn(messages.join(' ')),
        onError: (message) => callbacks.onWarn(String(message)),
      };
      player = new Player(url, options);
      if (method === 'mediasource') {
        callbacks.onHold(true);
        releaseHold = holdUntilBuffered(audio, bufferSeconds, () => callbacks.onHold(false));
      }
      prime(audio);
      await player.play();
    },
    async stop() {
      releaseHold();
      stopping = true;
      await player?.stop();
    },
    prepare() {
      // A failed prefetch is retried by play itself.
      loadIcecastPlayer().catch(() => {
        loading = undefined;
      });
    },
  };
};

function prime(audio: HTMLAudioElement): void {
  if (audio.paused) audio.play().catch(() => {});
}
