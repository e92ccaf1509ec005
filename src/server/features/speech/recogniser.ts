/**
 * A speech recogniser behind one interface (docs/decisions/040): fed the station's audio as 16 kHz mono
 * 16-bit samples stamped with the stream clock, it answers timed words on the same clock. Every engine
 * runs off the streaming path (a child process, or a server elsewhere), so nothing it does can hold up
 * the mixer or a listener.
 */

/** Speech is recognised at this rate, one channel: what every engine here expects. */
export const SPEECH_RATE = 16_000;

/** A recognised word: `start` and `end` are stream-clock seconds (DESIGN.md section 5). */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/** Words out of a recogniser; `final` once the engine will not revise them (its utterance ended). */
export interface RecognisedWords {
  words: TimedWord[];
  final: boolean;
}

export type RecogniserState = 'starting' | 'listening' | 'paused' | 'stopped';

export interface RecogniserStatus {
  engine: string;
  state: RecogniserState;
  /** Seconds of fed audio the engine has not yet answered for, when it has answered at all. */
  behindSeconds: number | null;
  /** Why it is paused (it died, hung, fell behind, its server refused), in words for staff. */
  reason: string | null;
}

/** What the word list did: words the engine knew, added, or could not take. */
export interface WordListResult {
  known: string[];
  added: string[];
  unknown: string[];
}

export interface Recogniser {
  readonly engine: string;
  /** Audio from stream-clock second `clock`; never blocks (an engine that lags drops audio, saying so). */
  feed(clock: number, samples: Int16Array): void;
  /** The speech so far is over (a programme ended): give its last words now. */
  flush(): void;
  /** Names, places, books of the Bible: words recognition should know, where the engine allows it. */
  setWordList(words: readonly string[]): void;
  onWords(listener: (words: RecognisedWords) => void): () => void;
  onWordList(listener: (result: WordListResult) => void): () => void;
  status(): RecogniserStatus;
  close(): Promise<void>;
}

/** The small listener registry every engine uses. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.set) listener(value);
  }
}
