/**
 * Which stream-clock second the listener is hearing (DESIGN.md section 5): the last ICY block's
 * StreamClock, heard at a known audio time, plus the audio time played since. Subtitles read this.
 */
export class StreamClockStore {
  private heard: { clock: number; audioTime: number } | null = null;
  private listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly audioTime: () => number | null) {}

  /** A metadata block carrying `clock` was heard while the audio element was at `audioTime`. */
  heardAt(clock: number, audioTime: number): void {
    if (!Number.isFinite(clock)) return;
    this.heard = { clock, audioTime };
    this.emit();
  }

  /** Playback stopped: nothing is being heard. */
  reset(): void {
    if (!this.heard) return;
    this.heard = null;
    this.emit();
  }

  /** The stream-clock second being heard now, or null when not playing. */
  now(): number | null {
    if (!this.heard) return null;
    const time = this.audioTime();
    const elapsed = time === null ? 0 : Math.max(0, time - this.heard.audioTime);
    return this.heard.clock + elapsed;
  }

  /** Changes each time a new block is heard or playback stops (for useSyncExternalStore). */
  getVersion = (): number => this.version;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private emit(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
