/** A broadcast frame: its bytes and where it sits on the stream clock. */
export interface TimedFrame {
  data: Buffer;
  /** Stream-clock second at which this frame starts. */
  start: number;
  duration: number;
}

/**
 * The recent broadcast as frames with their stream-clock times: the connect burst comes from here, and
 * listener clips are cut from it by stream clock (`between`). Keeps at least `keepSeconds` of audio.
 */
export class FrameHistory {
  private frames: TimedFrame[] = [];
  private head = 0;

  constructor(private readonly keepSeconds: number) {}

  push(frame: TimedFrame): void {
    this.frames.push(frame);
    const oldest = frame.start + frame.duration - this.keepSeconds;
    while (
      this.head < this.frames.length &&
      this.frames[this.head]!.start + this.frames[this.head]!.duration < oldest
    ) {
      this.head++;
    }
    // Compact now and then rather than shifting on every frame.
    if (this.head > 4096 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /** Frames that overlap the stream-clock interval [from, to), oldest first. */
  between(from: number, to: number): TimedFrame[] {
    if (!(to > from)) return [];
    const first = this.indexAt(from);
    const out: TimedFrame[] = [];
    for (let i = first; i < this.frames.length; i++) {
      const f = this.frames[i]!;
      if (f.start >= to) break;
      out.push(f);
    }
    return out;
  }

  /** Stream-clock span held: [oldest start, newest end]. */
  span(): { from: number; to: number } | null {
    if (this.head >= this.frames.length) return null;
    const last = this.frames[this.frames.length - 1]!;
    return { from: this.frames[this.head]!.start, to: last.start + last.duration };
  }

  /** Index of the first held frame that ends after `clock`. */
  private indexAt(clock: number): number {
    let lo = this.head;
    let hi = this.frames.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const f = this.frames[mid]!;
      if (f.start + f.duration <= clock) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
