import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Listeners,
  SPEECH_RATE,
  type RecognisedWords,
  type Recogniser,
  type RecogniserState,
  type RecogniserStatus,
  type WordListResult,
} from './recogniser.js';

/** From the repository's root, so the built server (dist/) finds it as the sources do. */
export const WORKER = fileURLToPath(
  new URL('../../../../src/server/features/speech/pocketsphinx-worker.py', import.meta.url),
);
const STARTUP_MS = 60_000;
/** Debian's Python, where python3-pocketsphinx is installed (not a virtualenv's). */
export const DEFAULT_PYTHON = '/usr/bin/python3';

export interface ChildEngineOptions {
  python?: string;
  /** Audio waiting for the child past this many seconds is dropped: it has fallen behind. */
  maxBacklogSeconds?: number;
  /** Fed audio and no answer for this long: the child hangs, and is replaced. */
  hangMs?: number;
  /** Waits before a replacement starts, growing after each failure in a row, to at most the last. */
  restartDelaysMs?: readonly number[];
  /** The child's scheduling priority (19: only what the station leaves; a recording's transcript). */
  nice?: number;
  log?: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

const messageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), engine: z.string() }),
  z.object({ type: z.literal('at'), clock: z.number() }),
  z.object({
    type: z.literal('words'),
    final: z.boolean(),
    words: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })),
  }),
  z.object({
    type: z.literal('bias'),
    known: z.array(z.string()),
    added: z.array(z.string()),
    unknown: z.array(z.string()),
  }),
]);

function frame(kind: 'A' | 'W' | 'F', payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(kind, 0, 'latin1');
  header.writeUInt32LE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

/**
 * CMU PocketSphinx in a child process (pocketsphinx-worker.py). The station writes audio to its stdin
 * and never waits: audio the child has not taken past `maxBacklogSeconds` is dropped. A child that dies,
 * or hangs with audio waiting, is replaced; meanwhile the status says paused and why.
 */
export class PocketSphinxRecogniser implements Recogniser {
  readonly engine = 'pocketsphinx';
  private child: ChildProcess | null = null;
  private state: RecogniserState = 'starting';
  private reason: string | null = null;
  private lastFedEnd: number | null = null;
  private answeredClock: number | null = null;
  private lastAnswerAt = 0;
  private waitingSince: number | null = null;
  private startedAt = 0;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private hangTimer: NodeJS.Timeout;
  private closed = false;
  private wordList: readonly string[] = [];
  private readonly words = new Listeners<RecognisedWords>();
  private readonly wordLists = new Listeners<WordListResult>();
  private readonly maxBacklogBytes: number;
  private readonly hangMs: number;
  private readonly delays: readonly number[];

  constructor(private readonly options: ChildEngineOptions = {}) {
    this.maxBacklogBytes = (options.maxBacklogSeconds ?? 6) * SPEECH_RATE * 2;
    this.hangMs = options.hangMs ?? 10_000;
    this.delays = options.restartDelaysMs ?? [1000, 2000, 5000, 15_000, 30_000];
    this.hangTimer = setInterval(() => this.checkHang(), Math.min(1000, this.hangMs / 2));
    this.hangTimer.unref();
    this.start();
  }

  private start(): void {
    this.state = this.state === 'paused' ? 'paused' : 'starting';
    const child = spawn(this.options.python ?? DEFAULT_PYTHON, [WORKER], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (this.options.nice !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, this.options.nice);
      } catch {
        // Not allowed to lower it here: it runs at the station's priority.
      }
    }
    this.child = child;
    this.startedAt = performance.now();
    this.waitingSince = null;
    this.answeredClock = null;
    this.lastFedEnd = null;
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    // A child gone mid-write: its exit says why.
    child.stdin!.on('error', () => {});
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(child, line));
    child.on('error', (error) => this.failed(child, `it could not start (${error.message})`));
    child.on('exit', (code, signal) => {
      const last = stderr.trim().split('\n').pop();
      this.failed(child, `it stopped (${signal ?? `exit ${code}`}${last ? `: ${last}` : ''})`);
    });
  }

  private onLine(child: ChildProcess, line: string): void {
    if (child !== this.child) return;
    let parsed;
    try {
      parsed = messageSchema.safeParse(JSON.parse(line));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    this.lastAnswerAt = performance.now();
    this.waitingSince = null;
    if (message.type === 'ready') {
      this.failures = 0;
      this.state = 'listening';
      this.reason = null;
      this.options.log?.info({ engine: this.engine }, 'speech recogniser ready');
      if (this.wordList.length > 0) this.sendWordList();
    } else if (message.type === 'at') {
      this.answeredClock = message.clock;
      if (this.state === 'paused' && this.reason?.startsWith('it fell behind')) this.resume();
    } else if (message.type === 'words') {
      if (message.words.length > 0) this.words.emit({ words: message.words, final: message.final });
    } else {
      this.wordLists.emit({ known: message.known, added: message.added, unknown: message.unknown });
    }
  }

  private resume(): void {
    this.state = 'listening';
    this.reason = null;
  }

  private pause(reason: string): void {
    if (this.state !== 'paused' || this.reason !== reason) {
      this.options.log?.warn({ engine: this.engine, reason }, 'speech recogniser paused');
    }
    this.state = 'paused';
    this.reason = reason;
  }

  private failed(child: ChildProcess, reason: string): void {
    if (child !== this.child) return;
    this.child = null;
    if (this.closed) return;
    this.pause(reason);
    const delay = this.delays[Math.min(this.failures, this.delays.length - 1)] ?? 1000;
    this.failures++;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.closed) this.start();
    }, delay);
    this.restartTimer.unref();
  }

  private checkHang(): void {
    const child = this.child;
    if (child && this.state !== 'listening' && this.lastAnswerAt < this.startedAt) {
      // Loading the model takes two seconds; one that never says ready is replaced as a hang is.
      if (performance.now() - this.startedAt > STARTUP_MS) this.replace(child, 'it did not start');
      return;
    }
    if (!child || this.waitingSince === null) return;
    if (performance.now() - this.waitingSince < this.hangMs) return;
    // Audio has waited with no answer at all: it hangs.
    this.replace(child, `it stopped answering for ${Math.round(this.hangMs / 1000)} s`);
  }

  /** Ends a child found stuck: paused for `reason`, which its exit keeps, and the replacement started. */
  private replace(child: ChildProcess, reason: string): void {
    this.failed(child, reason);
    child.kill('SIGKILL');
  }

  feed(clock: number, samples: Int16Array): void {
    const child = this.child;
    if (!child || this.state === 'starting' || !child.stdin!.writable) return;
    if (child.stdin!.writableLength > this.maxBacklogBytes) {
      this.pause('it fell behind the station, and audio was skipped');
      return;
    }
    const payload = Buffer.alloc(8 + samples.byteLength);
    payload.writeDoubleLE(clock, 0);
    Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).copy(payload, 8);
    child.stdin!.write(frame('A', payload));
    this.lastFedEnd = clock + samples.length / SPEECH_RATE;
    this.waitingSince ??= performance.now();
  }

  flush(): void {
    const stdin = this.child?.stdin;
    if (stdin?.writable) stdin.write(frame('F', Buffer.alloc(0)));
  }

  setWordList(words: readonly string[]): void {
    this.wordList = [...words];
    if (this.state !== 'starting') this.sendWordList();
  }

  private sendWordList(): void {
    const stdin = this.child?.stdin;
    if (stdin?.writable) stdin.write(frame('W', Buffer.from(JSON.stringify(this.wordList))));
  }

  onWords(listener: (words: RecognisedWords) => void): () => void {
    return this.words.add(listener);
  }

  onWordList(listener: (result: WordListResult) => void): () => void {
    return this.wordLists.add(listener);
  }

  status(): RecogniserStatus {
    const behind =
      this.lastFedEnd !== null && this.answeredClock !== null
        ? Math.max(0, Math.round((this.lastFedEnd - this.answeredClock) * 10) / 10)
        : null;
    return { engine: this.engine, state: this.state, behindSeconds: behind, reason: this.reason };
  }

  /** The child's process id, while one runs (for the fault tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'stopped';
    clearInterval(this.hangTimer);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
}
