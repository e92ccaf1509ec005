// Owns: the recent broadcast as frames on the stream clock, kept in pages: the connect burst and clips.
// Must not: write to listeners or encode; it only keeps and hands out frames by stream clock.
/** A broadcast frame: its bytes and where it sits on the stream clock. */
export interface TimedFrame {
  data: Buffer;
  /** Stream-clock second at which this frame starts. */
  start: number;
  duration: number;
}

/** Bytes of one page of history: about 4 s of the 128 kbps stream. */
const PAGE_BYTES = 64 * 1024;

/**
 * Frames copied one after another into one buffer, with where each starts in it and on the stream clock. It
 * indexes as many frames as fit of the size of its first (a constant bitrate's frames differ by a byte), and a
 * few more; smaller frames later fill its index before its bytes.
 */
class Page {
  readonly data: Buffer;
  readonly offsets: Uint32Array;
  readonly starts: Float64Array;
  readonly durations: Float64Array;
  count = 0;

  constructor(first: TimedFrame) {
    this.data = Buffer.allocUnsafeSlow(Math.max(PAGE_BYTES, first.data.length));
    const frames = Math.ceil(this.data.length / Math.max(1, first.data.length)) + 8;
    this.offsets = new Uint32Array(frames + 1);
    this.starts = new Float64Array(frames);
    this.durations = new Float64Array(frames);
  }

  fits(bytes: number): boolean {
    return this.count < this.starts.length && this.offsets[this.count]! + bytes <= this.data.length;
  }

  add(frame: TimedFrame): void {
    const at = this.offsets[this.count]!;
    frame.data.copy(this.data, at);
    this.starts[this.count] = frame.start;
    this.durations[this.count] = frame.duration;
    this.offsets[++this.count] = at + frame.data.length;
  }

  end(i: number): number {
    return this.starts[i]! + this.durations[i]!;
  }

  frame(i: number): TimedFrame {
    return {
      data: this.data.subarray(this.offsets[i]!, this.offsets[i + 1]!),
      start: this.starts[i]!,
      duration: this.durations[i]!,
    };
  }
}

/**
 * The recent broadcast as frames with their stream-clock times: the connect burst comes from here, and
 * listener clips are cut from it by stream clock (`between`). Keeps at least `keepSeconds` of audio.
 *
 * Frames are copied into pages of 64 KB rather than kept as objects: minutes of history at 38 frames a second
 * would otherwise be tens of thousands of small objects, each living just long enough for V8 to move it to its
 * old generation and dying there, where only a full collection frees it. A page is never written again once
 * full, so the frames `between` hands out stay valid after the page leaves the history.
 */
export class FrameHistory {
  private pages: Page[] = [];
  /** The oldest frame still held, in the first page. */
  private head = 0;

  constructor(private readonly keepSeconds: number) {}

  push(frame: TimedFrame): void {
    let page = this.pages[this.pages.length - 1];
    if (!page?.fits(frame.data.length)) {
      page = new Page(frame);
      this.pages.push(page);
    }
    page.add(frame);
    const oldest = frame.start + frame.duration - this.keepSeconds;
    for (;;) {
      const first = this.pages[0]!;
      if (this.head < first.count && first.end(this.head) < oldest) this.head++;
      else if (this.head >= first.count && first !== page) {
        this.pages.shift();
        this.head = 0;
      } else break;
    }
  }

  /** Frames that overlap the stream-clock interval [from, to), oldest first. */
  between(from: number, to: number): TimedFrame[] {
    if (!(to > from)) return [];
    const out: TimedFrame[] = [];
    for (let p = 0; p < this.pages.length; p++) {
      const page = this.pages[p]!;
      const first = p === 0 ? this.head : 0;
      for (let i = indexAt(page, first, from); i < page.count; i++) {
        if (page.starts[i]! >= to) return out;
        out.push(page.frame(i));
      }
    }
    return out;
  }

  /** Stream-clock span held: [oldest start, newest end]. */
  span(): { from: number; to: number } | null {
    const first = this.pages[0];
    const last = this.pages[this.pages.length - 1];
    if (!first || !last || this.head >= first.count) return null;
    return { from: first.starts[this.head]!, to: last.end(last.count - 1) };
  }
}

/** Index (from `lo`) of the first frame of the page that ends after `clock`. */
function indexAt(page: Page, lo: number, clock: number): number {
  let hi = page.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (page.end(mid) <= clock) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
