import { z } from 'zod';
import {
  Listeners,
  SPEECH_RATE,
  type RecognisedWords,
  type Recogniser,
  type RecogniserState,
  type RecogniserStatus,
  type TimedWord,
  type WordListResult,
} from './recogniser.js';
import { SpeechSegmenter, wavFile, type SpeechSegment } from './speech-segments.js';
import { normalisedWords } from './word-error-rate.js';

export interface TranscriptionServer {
  /** The endpoint itself: `http://127.0.0.1:8080/v1/audio/transcriptions`. */
  url: string;
  apiKey?: string;
  /** The model the server is asked for (`whisper-1` for OpenAI; servers of one model ignore it). */
  model: string;
  /** The language spoken, so the server need not guess it from each segment. */
  language?: string;
  /** A request unanswered this long is given up, and the engine says it stopped answering. */
  timeoutMs?: number;
  /** Segments waiting past this many seconds of audio are dropped: the server has fallen behind. */
  maxBacklogSeconds?: number;
  /** Longest segment sent (a sentence with no pause is cut here). */
  maxSegmentSeconds?: number;
}

/** OpenAI's verbose_json answer: `words` when word timestamps were asked for, `segments` always. */
const verboseSchema = z.object({
  text: z.string(),
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).optional(),
  segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).optional(),
});

/** Words of a segment the server gave no word times for, spread over its time by their lengths. */
function spread(text: string, start: number, end: number): TimedWord[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const letters = words.reduce((n, w) => n + w.length, 0) || 1;
  let at = start;
  return words.map((word) => {
    const length = ((end - start) * word.length) / letters;
    const timed = { text: word, start: at, end: at + length };
    at += length;
    return timed;
  });
}

/** A transcription as timed words on the stream clock, the segment starting at `clock`. */
export function wordsOf(answer: z.infer<typeof verboseSchema>, segment: SpeechSegment): TimedWord[] {
  const duration = segment.samples.length / SPEECH_RATE;
  const timed = answer.words?.length
    ? answer.words.map((w) => ({ text: w.word.trim(), start: w.start, end: w.end }))
    : answer.segments?.length
      ? answer.segments.flatMap((s) => spread(s.text, s.start, s.end))
      : spread(answer.text, 0, duration);
  const round = (s: number) => Math.round((segment.clock + Math.min(Math.max(s, 0), duration)) * 100) / 100;
  return timed
    .filter((w) => w.text.length > 0)
    .map((w) => ({ text: w.text, start: round(w.start), end: round(w.end) }));
}

/**
 * A Whisper-class engine elsewhere, reached by the OpenAI-compatible `POST /v1/audio/transcriptions`
 * (whisper.cpp's server, faster-whisper-server, OpenAI itself): the station's speech cut at its pauses,
 * each segment sent as a WAV file, one request at a time. The word list goes as the `prompt`, which
 * Whisper models read as preceding text and so spell those names as given.
 */
export class TranscriptionServerRecogniser implements Recogniser {
  readonly engine = 'openai-transcriptions';
  private readonly segmenter: SpeechSegmenter;
  private readonly queue: SpeechSegment[] = [];
  private busy: AbortController | null = null;
  private state: RecogniserState = 'listening';
  private reason: string | null = null;
  private lastFedEnd: number | null = null;
  /** The segment at the server now, if one is. */
  private inFlight: SpeechSegment | null = null;
  private prompt = '';
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private readonly words = new Listeners<RecognisedWords>();
  private readonly wordLists = new Listeners<WordListResult>();

  constructor(private readonly server: TranscriptionServer) {
    this.segmenter = new SpeechSegmenter({ maxSeconds: server.maxSegmentSeconds ?? 6 });
  }

  feed(clock: number, samples: Int16Array): void {
    if (this.closed) return;
    this.lastFedEnd = clock + samples.length / SPEECH_RATE;
    this.enqueue(this.segmenter.push(clock, samples));
  }

  flush(): void {
    const last = this.segmenter.flush();
    if (last) this.enqueue([last]);
  }

  private enqueue(segments: SpeechSegment[]): void {
    if (segments.length === 0) return;
    this.queue.push(...segments);
    const limit = (this.server.maxBacklogSeconds ?? 30) * SPEECH_RATE;
    let waiting = this.queue.reduce((n, s) => n + s.samples.length, 0);
    while (waiting > limit && this.queue.length > 1) {
      waiting -= this.queue.shift()!.samples.length;
      this.pause('it fell behind the station, and speech was skipped');
    }
    if (!this.busy) this.idle = this.next();
  }

  private async next(): Promise<void> {
    while (!this.closed && this.queue.length > 0) {
      const segment = this.queue.shift()!;
      const abort = new AbortController();
      this.busy = abort;
      this.inFlight = segment;
      const timer = setTimeout(() => abort.abort(), this.server.timeoutMs ?? 20_000);
      try {
        const words = await this.transcribe(segment, abort.signal);
        if (this.state === 'paused' && this.queue.length === 0) this.resume();
        else if (this.state === 'paused' && !this.reason?.startsWith('it fell behind')) this.resume();
        if (words.length > 0) this.words.emit({ words, final: true });
      } catch (error) {
        this.pause(
          abort.signal.aborted
            ? `it stopped answering for ${Math.round((this.server.timeoutMs ?? 20_000) / 1000)} s`
            : error instanceof Error
              ? error.message
              : String(error),
        );
      } finally {
        clearTimeout(timer);
        this.busy = null;
        this.inFlight = null;
      }
    }
  }

  private async transcribe(segment: SpeechSegment, signal: AbortSignal): Promise<TimedWord[]> {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(wavFile(segment.samples))], { type: 'audio/wav' }),
      'speech.wav',
    );
    form.append('model', this.server.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    if (this.server.language) form.append('language', this.server.language);
    if (this.prompt) form.append('prompt', this.prompt);
    const response = await fetch(this.server.url, {
      method: 'POST',
      body: form,
      signal,
      headers: this.server.apiKey ? { authorization: `Bearer ${this.server.apiKey}` } : {},
    });
    if (!response.ok) throw new Error(`its server answered ${response.status}`);
    const parsed = verboseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new Error('its server answered something other than a transcription');
    return wordsOf(parsed.data, segment);
  }

  private pause(reason: string): void {
    this.state = 'paused';
    this.reason = reason;
  }

  private resume(): void {
    this.state = 'listening';
    this.reason = null;
  }

  setWordList(words: readonly string[]): void {
    const kept = words.map((w) => w.trim()).filter(Boolean);
    this.prompt = kept.join(', ').slice(0, 800);
    // Whisper spells a word of its prompt as written; any word can be taken.
    this.wordLists.emit({ known: [], added: kept.map((w) => normalisedWords(w).join(' ')), unknown: [] });
  }

  onWords(listener: (words: RecognisedWords) => void): () => void {
    return this.words.add(listener);
  }

  onWordList(listener: (result: WordListResult) => void): () => void {
    return this.wordLists.add(listener);
  }

  status(): RecogniserStatus {
    // From the oldest speech not yet answered for to the newest audio fed; nothing waiting, nothing behind.
    const oldest = this.inFlight ?? this.queue[0];
    const behind =
      oldest && this.lastFedEnd !== null ? Math.round((this.lastFedEnd - oldest.clock) * 10) / 10 : 0;
    return { engine: this.engine, state: this.state, behindSeconds: behind, reason: this.reason };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'stopped';
    this.busy?.abort();
    await this.idle;
  }
}
