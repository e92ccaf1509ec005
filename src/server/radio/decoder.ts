// Owns: one decoder process to the internal format, supervised: back-pressure, hangs, crashes, restarts.
// Must not: say what it decodes or how (file-decoder.ts, live-decoder.ts), nor mix, fade or choose a source.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ffmpegPath, MissingMediaToolError } from './ffmpeg.js';
import { PcmQueue, SAMPLE_RATE, type Fade } from './pcm.js';

export interface DecodeOptions {
  /** Seconds of audio decoded ahead of what is mixed; the pipe then waits (TCP-like backpressure). */
  aheadSeconds: number;
  /** Logged once per failure, not per retry. */
  log?: (message: string, detail: Record<string, unknown>) => void;
  /**
   * The longest a process that sent audio may then send nothing while audio is wanted before it counts as stuck
   * and is replaced; sooner when less than that is decoded ahead (HANG_MS). `minHangMs`: never sooner than this.
   */
  hangMs?: number;
  minHangMs?: number;
  /** Restarts after a crash or a hang before the source counts as ended. */
  maxRestarts?: number;
}

/**
 * A decoder that sent audio and stops is waited for while what it decoded ahead lasts, less what a replacement
 * takes to send its first audio (REPLACE_SECONDS), within MIN_HANG_MS (a busy machine's slow answer is not a
 * hang) and HANG_MS (a file decoder has seconds ahead; a healthy one answers in milliseconds). A process that
 * has sent nothing yet is starting (ffmpeg loads its libraries): STARTING_MS.
 */
const HANG_MS = 350;
const MIN_HANG_MS = 250;
const REPLACE_SECONDS = 0.4;
const STARTING_MS = 3000;

/**
 * Unread output past this in its pipe (64 KiB on Linux) may hold a decoder's next write back: it is not stuck
 * while so much waits for us. Under it, a working decoder writes within milliseconds.
 */
const PIPE_NEARLY_FULL = 32 * 1024;

/** Bytes a process has written, to any file or pipe (`wchar` of `/proc/<pid>/io`); null where that is not readable. */
export function bytesWritten(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'latin1'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * One decoder process (ffmpeg, or mpg123 for an MP3 file) turning a source into the internal format,
 * supervised: a process that dies or hangs before its end is replaced at once (from where it was, for a file),
 * so a listener hears at most a short gap. Subclasses say what to run.
 */
export abstract class PcmSource {
  protected readonly queue = new PcmQueue((samples) => this.shape(samples));
  protected proc: ChildProcess | null = null;
  protected paused = false;
  protected lastData = 0;
  /** What the running process sent that Node has read, on stdout and on stderr. */
  private readBytes = 0;
  /** The process's `bytesWritten` when it last moved (or its pipe was nearly full), and when that was seen. */
  private progress = { written: 0, at: 0 };
  /** The running process has sent audio. */
  private answered = false;
  private restarts = 0;
  private closed = false;
  /** The process reached the source's end: what is queued is all there is. */
  ended = false;

  constructor(protected readonly options: DecodeOptions) {}

  /** Sample frames ready to mix. */
  get available(): number {
    return this.queue.available;
  }

  /** Seconds of audio this source has delivered, ever. */
  get receivedSeconds(): number {
    return this.queue.received / SAMPLE_RATE;
  }

  /** Ended and mixed to the last sample. */
  get exhausted(): boolean {
    return this.ended && this.queue.available === 0;
  }

  /** Adds up to `frames` sample frames into `out` at `at` (faded); returns how many. */
  mixInto(out: Float32Array, at: number, frames: number, fade: Fade | null = null): number {
    const done = this.queue.mixInto(out, at, frames, fade);
    this.resumeIfRoom();
    return done;
  }

  /** Drops all but the last `keep` sample frames decoded, unheard (a live source waiting for its start). */
  keepLast(keep: number): void {
    this.queue.drop(this.queue.available - keep);
    this.resumeIfRoom();
  }

  /** A process held back while its audio was ahead by enough reads again once there is room. */
  private resumeIfRoom(): void {
    if (this.paused && this.queue.available < this.options.aheadSeconds * SAMPLE_RATE) {
      this.paused = false;
      this.proc?.stdout?.resume();
    }
  }

  /** Called on every engine tick: restarts a process that stopped sending while its audio is wanted. */
  check(now = performance.now()): void {
    const proc = this.proc;
    if (!this.overdue(now) || this.judging) return;
    // Timers run before Node reads its pipes: after Node itself was held up (a busy machine), the audio may be
    // waiting in the pipe. Judged again once it is read.
    this.judging = true;
    setImmediate(() => {
      this.judging = false;
      if (this.proc === proc && this.overdue(performance.now())) this.recover('stopped sending audio');
    });
  }

  private judging = false;

  /** Audio is owed, and has been for longer than the process is given (see HANG_MS). */
  private overdue(now: number): boolean {
    if (this.closed || this.ended || !this.proc) return false;
    const since = this.owedSince(now);
    if (since === null) return false;
    const { hangMs = HANG_MS, minHangMs = MIN_HANG_MS } = this.options;
    const aheadMs = (this.queue.available / SAMPLE_RATE - REPLACE_SECONDS) * 1000;
    const limit = this.answered ? Math.min(hangMs, Math.max(minHangMs, aheadMs)) : STARTING_MS;
    return now - since > limit;
  }

  close(): void {
    this.closed = true;
    this.queue.clear();
    this.proc?.kill('SIGKILL');
    this.proc = null;
  }

  /** The ffmpeg arguments for a (re)start; `received` sample frames were already had from earlier runs. */
  protected abstract args(received: number): string[];

  /** The decoder a (re)start runs: ffmpeg unless a subclass says otherwise. */
  protected command(received: number): { path: string; args: string[] } {
    return { path: ffmpegPath(), args: this.args(received) };
  }

  protected start(): void {
    let command;
    try {
      command = this.command(this.queue.received);
    } catch (error) {
      if (!(error instanceof MissingMediaToolError)) throw error;
      // Nothing on this server decodes it (no ffmpeg): the source ends, what plays goes on.
      this.options.log?.(
        `audio decoder cannot start (${error.message}); skipping this source`,
        this.describe(),
      );
      this.ended = true;
      return;
    }
    const proc = spawn(command.path, command.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc = proc;
    this.answered = false;
    this.lastData = performance.now();
    this.readBytes = 0;
    this.progress = { written: 0, at: this.lastData };
    let errors = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      if (this.proc === proc) this.readBytes += chunk.length;
      if (errors.length < 2000) errors += chunk.toString();
    });
    proc.stdin!.on('error', () => {}); // a dead process's pipe: its exit is handled below
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (this.proc !== proc) return;
      this.lastData = performance.now();
      this.readBytes += chunk.length;
      // Audio again: a later failure is a new one (logged, and given its own restarts).
      if (!this.answered) this.answered = true;
      else this.restarts = 0;
      this.queue.push(chunk);
      if (!this.paused && this.queue.available >= this.options.aheadSeconds * SAMPLE_RATE) {
        this.paused = true;
        proc.stdout!.pause();
      }
    });
    proc.on('error', (error) => this.failed(proc, error.message));
    proc.on('close', (code, signal) => {
      if (this.proc !== proc) return;
      if (code === 0) {
        this.ended = true;
        this.proc = null;
      } else
        this.failed(proc, signal ? `killed by ${signal}` : errors.trim().split('\n').pop() || `exit ${code}`);
    });
  }

  private failed(proc: ChildProcess, reason: string): void {
    if (this.proc !== proc || this.closed) return;
    this.recover(reason);
  }

  private recover(reason: string): void {
    const old = this.proc;
    this.proc = null;
    old?.kill('SIGKILL');
    if (this.restarts === 0) this.options.log?.(`audio decoder ${reason}; restarting it`, this.describe());
    if (++this.restarts > (this.options.maxRestarts ?? 3)) {
      this.options.log?.('audio decoder keeps failing; skipping this source', this.describe());
      this.ended = true;
      return;
    }
    this.paused = false;
    this.start();
  }

  protected abstract describe(): Record<string, unknown>;

  /** Works on decoded audio in place as it arrives; nothing by default. */
  protected shape(_samples: Float32Array): void {}

  /**
   * Since when audio is owed, or null when none is. By default, since the process last wrote while its pipe had
   * room: audio it wrote before it stopped, still in the pipe, does not hide that it stopped (a decoder ahead is
   * found within a tick of being asked for more). Where `/proc` is not readable, since its last output that Node
   * read, while audio is wanted.
   */
  protected owedSince(now: number): number | null {
    const written = bytesWritten(this.proc?.pid);
    if (written === null) return this.paused ? null : this.lastData;
    // What it wrote that is neither read by Node nor buffered in Node's stream waits in the pipe.
    const inPipe = written - this.readBytes - (this.proc?.stdout?.readableLength ?? 0);
    if (written !== this.progress.written || inPipe >= PIPE_NEARLY_FULL) this.progress = { written, at: now };
    return this.progress.at;
  }
}
