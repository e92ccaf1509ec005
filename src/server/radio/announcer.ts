// Owns: what is on the air (the track, every mount's ICY title) and who is told: now playing, events, cues.
// Must not: decide what airs or count listeners; the parts call it when something changed.
import type { NowPlaying, Track } from '../../common/radio.js';
import type { Cue } from './autodj.js';
import type { AirEvent } from './on-air.js';

/**
 * The track on air and the listeners to it: now-playing changes at once, listener counts at most every
 * `pushMs` (the last one always); staff events (AirEvent) and the subtitle lines of AutoDJ media as they play.
 */
export class Announcer {
  track: Track;
  private lastPush = 0;
  private pushTimer: NodeJS.Timeout | null = null;
  private readonly changeListeners = new Set<(np: NowPlaying) => void>();
  private readonly cueListeners = new Set<(cue: Cue) => void>();
  private readonly eventListeners = new Set<(event: AirEvent) => void>();

  constructor(
    private readonly options: {
      /** What plays before anything is known (the station's own name). */
      track: Track;
      pushMs: number;
      nowPlaying: () => NowPlaying;
      /** The ICY title on every mount from stream-clock second `from`. */
      setTitle: (title: string, from: number) => void;
      /** The stream-clock second broadcast now. */
      clock: () => number;
    },
  ) {
    this.track = options.track;
  }

  /** `Artist - Title`, as ICY metadata carries it. */
  streamTitle(): string {
    return `${this.track.artist} - ${this.track.title}`;
  }

  /** What plays from stream-clock second `from` (the ICY title changes there on every mount). */
  setTrack(track: Track, from = this.options.clock()): void {
    this.track = track;
    this.options.setTitle(this.streamTitle(), from);
    this.changed();
  }

  onChange(listener: (np: NowPlaying) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Now playing changed: pushed at once. */
  changed(): void {
    this.lastPush = Date.now();
    const np = this.options.nowPlaying();
    for (const listener of this.changeListeners) listener(np);
  }

  /** Listener counts change often; they are pushed at most every few seconds, the last one always. */
  listenersChanged(): void {
    if (this.pushTimer) return;
    const wait = Math.max(0, this.lastPush + this.options.pushMs - Date.now());
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      this.changed();
    }, wait);
    this.pushTimer.unref();
  }

  /** No listener-count push is waiting any more. */
  stop(): void {
    if (this.pushTimer) clearInterval(this.pushTimer);
    this.pushTimer = null;
  }

  onEvent(listener: (event: AirEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  emit(event: AirEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  onCue(listener: (cue: Cue) => void): () => void {
    this.cueListeners.add(listener);
    return () => this.cueListeners.delete(listener);
  }

  cue(cue: Cue): void {
    for (const listener of this.cueListeners) listener(cue);
  }
}
