import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultHighWaterMark, setDefaultHighWaterMark, type Readable } from 'node:stream';
import { ffmpegPath } from './ffmpeg.js';
import { FrameParser, type Mp3Frame } from './mp3-frames.js';
import { PCM_ARGS } from './pcm.js';

/**
 * LAME's quality (0 best, 9 fastest): its library default, which ffmpeg keeps when none is given. 2 costs about
 * half as much CPU again for a difference nobody hears at these bitrates (bench/pipeline compares Liquidsoap at
 * the same setting).
 */
export const LAME_QUALITY = 3;

/** A new run may take this long to answer before it counts as stuck. */
const STARTING_MS = 3000;

/** One bitrate's frames of the current run, in order: `frames[0]` is stream slot `first`. */
interface Encoded {
  first: number;
  frames: Mp3Frame[];
}

export interface EncoderOptions {
  bitrates: readonly number[];
  /** The master limiter's ceiling, linear (sample peak, under the true-peak target). */
  limit: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
  /** Audio written but not answered by a frame for this long: the encoder is stuck and restarted. */
  hangMs?: number;
}

/**
 * One ffmpeg encoding the mixed audio to MP3 at every bitrate at once, through one master limiter: frame n
 * of every bitrate is the same 1152 samples. Each run of the process starts at a slot (its epoch); its
 * frames are numbered from there, so frames of a run that died are never placed where silence already went.
 * Supervised: a process that dies or hangs is started again at once, and that is logged once per failure.
 */
export class MultiEncoder {
  private proc: ChildProcess | null = null;
  /** In the order of `bitrates`. */
  private readonly queues: Encoded[];
  /** The running process's output pipe and frame parser for each bitrate, in the same order. */
  private outputs: { pipe: Readable; parser: FrameParser }[] = [];
  private epoch = 0;
  private unanswered: number | null = null;
  private lastFrame = 0;
  private startedAt = 0;
  private failing = false;
  /** This run was killed by the supervisor for not answering. */
  private stuck = false;
  private closed = false;

  constructor(private readonly options: EncoderOptions) {
    this.queues = options.bitrates.map(() => ({ first: 0, frames: [] }));
  }

  get bitrates(): readonly number[] {
    return this.options.bitrates;
  }

  /** Starts a run whose first frame is `slot`. */
  start(slot: number): void {
    this.stopProcess();
    this.epoch = slot;
    for (const queue of this.queues) queue.first = slot;
    this.unanswered = null;
    this.stuck = false;
    this.startedAt = performance.now();
    const outputs = this.options.bitrates.flatMap((kbps, i) => [
      ...['-map', `[o${i}]`, '-c:a', 'libmp3lame', '-b:a', `${kbps}k`],
      ...['-compression_level', String(LAME_QUALITY)],
      ...['-write_xing', '0', '-id3v2_version', '0', '-flush_packets', '1', '-f', 'mp3', `pipe:${3 + i}`],
    ]);
    const split = this.options.bitrates.map((_, i) => `[o${i}]`).join('');
    // ffmpeg writes each frame of each bitrate on its own, about 150 writes a second. Read as they land, each
    // woke Node for one frame; instead each pipe is read once a tick (`check`). A pipe's stream stops reading
    // from the kernel once it holds its high-water mark, so with a mark of one byte it holds one read until
    // `check` drains it and asks for the next (the mark is taken when the streams are made, inside `spawn`).
    const mark = getDefaultHighWaterMark(false);
    setDefaultHighWaterMark(false, 1);
    let proc: ChildProcess;
    try {
      proc = spawn(
        ffmpegPath(),
        [
          // Its format is given: without probing, the first frames come after a few frames of audio, not
          // after more than a second of it (so a restarted encoder is back within the gap the engine covers).
          ...['-hide_banner', '-nostdin', '-v', 'error', '-probesize', '32', '-analyzeduration', '0'],
          ...[...PCM_ARGS, '-i', 'pipe:0'],
          ...[
            '-filter_complex',
            `[0:a]alimiter=limit=${this.options.limit.toFixed(4)}:level=0,asplit=${this.options.bitrates.length}${split}`,
          ],
          ...outputs,
        ],
        { stdio: ['pipe', 'ignore', 'pipe', ...this.options.bitrates.map(() => 'pipe' as const)] },
      );
    } finally {
      setDefaultHighWaterMark(false, mark);
    }
    this.proc = proc;
    let errors = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      if (errors.length < 2000) errors += chunk.toString();
    });
    proc.stdin!.on('error', () => {});
    this.outputs = this.queues.map((_, i) => ({
      pipe: proc.stdio[3 + i] as Readable,
      parser: new FrameParser({ trusted: true }),
    }));
    const failed = (reason: string) => {
      if (this.proc !== proc || this.closed) return;
      this.proc = null;
      if (!this.failing) this.options.log?.(`audio encoder ${reason}; restarting it`);
      this.failing = true;
    };
    proc.on('error', (error) => failed(error.message));
    proc.on('close', (code, signal) =>
      failed(
        this.stuck
          ? 'stopped answering'
          : signal
            ? `killed by ${signal}`
            : errors.trim().split('\n').pop() || `exit ${code}`,
      ),
    );
  }

  /** True while a process runs; after a failure the engine starts a new run at its next slot. */
  get running(): boolean {
    return this.proc !== null;
  }

  /** Mixed audio in (whole frames of 1152 sample frames). */
  write(pcm: Float32Array): void {
    const stdin = this.proc?.stdin;
    if (!stdin || stdin.destroyed) return;
    this.unanswered ??= performance.now();
    stdin.write(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  }

  /**
   * Each engine tick: takes the frames each pipe holds, then kills a process that was written to and answered
   * nothing for too long.
   */
  check(now = performance.now()): void {
    this.collect();
    if (!this.proc || this.unanswered === null) return;
    // A run that has not answered yet is starting (a busy machine may take a while); one that has, stopped.
    const limit = this.lastFrame > this.startedAt ? (this.options.hangMs ?? 700) : STARTING_MS;
    if (now - Math.max(this.unanswered, this.lastFrame) > limit) {
      this.stuck = true;
      this.proc.kill('SIGKILL');
    }
  }

  /** Reads what each output pipe holds (its stream then reads the kernel again, once) into the queues. */
  private collect(): void {
    this.outputs.forEach(({ pipe, parser }, i) => {
      for (let chunk: Buffer | null; (chunk = pipe.read() as Buffer | null) !== null;) {
        this.lastFrame = performance.now();
        this.unanswered = null;
        for (const frame of parser.push(chunk)) this.queues[i]!.frames.push(frame);
      }
    });
  }

  /**
   * The frame of every bitrate for `slot`, in the order of `bitrates`: 'ready' with them, 'later' while one may
   * still come, 'lost' when that slot will never be encoded (its run died, or it came before this run).
   */
  take(slot: number): { state: 'ready'; frames: Mp3Frame[] } | { state: 'later' | 'lost' } {
    let later = false;
    for (const queue of this.queues) {
      while (queue.frames.length && queue.first < slot) {
        queue.frames.shift();
        queue.first++;
      }
      if (!queue.frames.length || queue.first > slot) {
        if (queue.frames.length || slot < this.epoch || !this.proc) return { state: 'lost' };
        later = true;
      }
    }
    if (later) return { state: 'later' };
    const frames = this.queues.map((queue) => {
      queue.first++;
      return queue.frames.shift()!;
    });
    if (this.failing) {
      this.failing = false;
      this.options.log?.('audio encoder back');
    }
    return { state: 'ready', frames };
  }

  close(): void {
    this.closed = true;
    this.stopProcess();
  }

  private stopProcess(): void {
    const proc = this.proc;
    this.proc = null;
    proc?.kill('SIGKILL');
    // Nothing reads them any more: closed here, or they would hold their pipes open.
    for (const { pipe } of this.outputs) pipe.destroy();
    this.outputs = [];
    for (const queue of this.queues) queue.frames.length = 0;
  }
}
