import type { NowPlaying } from '../../common/radio.js';
import type { NowPlayingSource } from './now-playing-source.js';

/**
 * The source on air, which staff may change while the station runs (the Station tab's stream source): the
 * radio API and the /ws push hold this one object, and it hands them whichever source is active.
 */
export class SwitchableSource implements NowPlayingSource {
  private readonly listeners = new Set<(nowPlaying: NowPlaying) => void>();
  private unsubscribe: () => void;
  private started = false;

  constructor(private current: NowPlayingSource) {
    this.unsubscribe = this.follow(current);
  }

  /** The source behind this one now. */
  get active(): NowPlayingSource {
    return this.current;
  }

  nowPlaying(): NowPlaying {
    return this.current.nowPlaying();
  }

  streamUrl(origin: string): string {
    return this.current.streamUrl(origin);
  }

  onChange(listener: (nowPlaying: NowPlaying) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    this.started = true;
    await this.current.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.current.stop();
  }

  /** Puts `next` on air: started first (when this one runs), then the previous one stopped. */
  async switchTo(next: NowPlayingSource): Promise<void> {
    if (next === this.current) return;
    const previous = this.current;
    if (this.started) await next.start();
    this.unsubscribe();
    this.current = next;
    this.unsubscribe = this.follow(next);
    await previous.stop();
    this.emit(next.nowPlaying());
  }

  private follow(source: NowPlayingSource): () => void {
    return source.onChange((nowPlaying) => this.emit(nowPlaying));
  }

  private emit(nowPlaying: NowPlaying): void {
    for (const listener of this.listeners) listener(nowPlaying);
  }
}
