import type { TimedWord } from './recogniser.js';

/** A caption line out of recognised words: its stream-clock second and its words' span. */
export interface CaptionLine {
  text: string;
  timestamp: number;
  start: number;
  end: number;
}

export interface LineOptions {
  /** A line is closed once its words span this long... */
  maxSeconds?: number;
  /** ...or hold this many words... */
  maxWords?: number;
  /** ...or the speaker pauses this long before the next word. */
  pauseSeconds?: number;
  /** Words the word list spells (names, books): written as listed ('Habakkuk'), not as recognised. */
  spellings?: ReadonlyMap<string, string>;
}

/** 'i' and the start of a line in capitals, listed words as listed. */
function written(words: TimedWord[], spellings: ReadonlyMap<string, string>): string {
  const text = words
    .map((w) => spellings.get(w.text.toLowerCase()) ?? (w.text === 'i' ? 'I' : w.text.replace(/^i'/, "I'")))
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Groups recognised words into caption lines a listener can read: short (a listener sees a line when its
 * first word is heard, so a long line would come late), broken at the speaker's pauses, each at its own
 * stream-clock second (the player keeps one line per second: a second line there would replace the first).
 * That second is the first whole one at or after its first word: the player shows a line from its second on,
 * so a line stamped earlier would be read up to a second before it is said.
 */
export class CaptionLines {
  private pending: TimedWord[] = [];
  private lastSecond = -1;
  private readonly maxSeconds: number;
  private readonly maxWords: number;
  private readonly pause: number;
  spellings: ReadonlyMap<string, string>;

  constructor(
    private readonly emit: (line: CaptionLine) => void,
    options: LineOptions = {},
  ) {
    this.maxSeconds = options.maxSeconds ?? 2.5;
    this.maxWords = options.maxWords ?? 10;
    this.pause = options.pauseSeconds ?? 0.7;
    this.spellings = options.spellings ?? new Map();
  }

  add(words: readonly TimedWord[], final: boolean): void {
    for (const word of words) {
      const first = this.pending[0];
      const last = this.pending.at(-1);
      if (
        first &&
        last &&
        (word.start - last.end >= this.pause || word.end - first.start > this.maxSeconds)
      ) {
        this.close();
      }
      this.pending.push(word);
      if (this.pending.length >= this.maxWords) this.close();
    }
    if (final) this.close();
  }

  /** The words held, as a line now (nothing more came for a while, or the speech ended). */
  close(): void {
    if (this.pending.length === 0) return;
    const words = this.pending;
    this.pending = [];
    const timestamp = Math.max(Math.ceil(words[0]!.start), this.lastSecond + 1);
    this.lastSecond = timestamp;
    this.emit({
      text: written(words, this.spellings),
      timestamp,
      start: words[0]!.start,
      end: words.at(-1)!.end,
    });
  }

  get holding(): boolean {
    return this.pending.length > 0;
  }

  /** The stream clock jumped back (the station restarted): seconds start afresh. */
  reset(): void {
    this.pending = [];
    this.lastSecond = -1;
  }
}
