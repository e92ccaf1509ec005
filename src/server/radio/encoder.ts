import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultHighWaterMark, setDefaultHighWaterMark, type Readable, type Writable } from 'node:stream';
import { ffmpegPath, optionalTool } from './ffmpeg.js';
import { PeakLimiter, toS16 } from './limiter.js';
import { FrameParser, type Mp3Frame } from './mp3-frames.js';
import { PCM_ARGS, SAMPLE_RATE } from './pcm.js';

/**
 * LAME's quality (0 best, 9 fastest): its library default, which ffmpeg keeps when none is given. 2 costs about
 * half as much CPU again for a difference nobody hears at these bitrates (bench/pipeline compares Liquidsoap at
 * the same setting).
 */
export const LAME_QUALITY = 3;

/**
 * The LAME command line, where the system has it (Debian's `lame`): one process per bitrate, about 3 MB each,
 * where the one ffmpeg encoding them all holds 30 to 45 MB (decision 027). `LAME_PATH` names one; set empty,
 * ffmpeg encodes.
 */
export const lamePath = optionalTool('lame', 'LAME_PATH', 'LAME');

/** What `lame` is told: the internal format as 16-bit PCM in, CBR MP3 out at 44.1 kHz whatever the bitrate. */
export const lameArgs = (kbps: number) => [
  ...['--quiet', '-r', '-s', String(SAMPLE_RATE / 1000), '--bitwidth', '16', '--signed', '--little-endian'],
  ...['-m', 'j', '--cbr', '-b', String(kbps), '--resample', String(SAMPLE_RATE / 1000)],
  ...['-q', String(LAME_QUALITY)],
  // No Xing frame, no ReplayGain analysis, each frame written as it is made.
  ...['-t', '--noreplaygain', '--flush', '-', '-'],
];

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
 * The mixed audio encoded to MP3 at every bitrate at once, through one master limiter: frame n of every bitrate
 * is the same 1152 samples. Where the system has `lame`, one LAME process per bitrate behind a limiter in Node
 * (decision 027); else one ffmpeg with its own limiter. Each run starts at a slot (its epoch); its frames are
 * numbered from there, so frames of a run that died are never placed where silence already went. Supervised: a
 * process that dies or hangs ends the run, and a new one starts at once; that is logged once per failure.
 */
export class MultiEncoder {
  private procs: ChildProcess[] = [];
  /** Where the run's audio goes: ffmpeg's input, or every LAME's. */
  private inputs: Writable[] = [];
  /** In the order of `bitrates`. */
  private readonly queues: Encoded[];
  /** The running processes' output pipe, frame parser and latest frame for each bitrate, in the same order. */
  private outputs: { pipe: Readable; parser: FrameParser; lastFrame: number }[] = [];
  /** The LAME that encodes each bitrate, if any, and the limiter in front of them (ffmpeg limits in its own
   * filter graph). */
  private readonly lame = lamePath();
  private readonly limiter: PeakLimiter | null;
  private epoch = 0;
  private unanswered: number | null = null;
  private startedAt = 0;
  private failing = false;
  /** This run was killed by the supervisor for not answering. */
  private stuck = false;
  private closed = false;

  constructor(private readonly options: EncoderOptions) {
    this.queues = options.bitrates.map(() => ({ first: 0, frames: [] }));
    this.limiter = this.lame ? new PeakLimiter(options.limit) : null;
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
    // The encoders write each frame of each bitrate on its own, about 150 writes a second. Read as they land,
    // each woke Node for one frame; instead each pipe is read once a tick (`check`). A pipe's stream stops
    // reading from the kernel once it holds its high-water mark, so with a mark of one byte it holds one read
    // until `check` drains it and asks for the next (the mark is taken when the streams are made, inside `spawn`).
    const mark = getDefaultHighWaterMark(false);
    setDefaultHighWaterMark(false, 1);
    let pipes: Readable[];
    try {
      const lame = this.lame;
      if (lame) {
        this.procs = this.options.bitrates.map((kbps) =>
          spawn(lame, lameArgs(kbps), { stdio: ['pipe', 'pipe', 'pipe'] }),
        );
        pipes = this.procs.map((proc) => proc.stdout!);
      } else {
        const proc = this.spawnFfmpeg();
        this.procs = [proc];
        pipes = this.options.bitrates.map((_, i) => proc.stdio[3 + i] as Readable);
      }
    } finally {
      setDefaultHighWaterMark(false, mark);
    }
    const procs = this.procs;
    this.inputs = procs.map((proc) => proc.stdin!);
    this.outputs = pipes.map((pipe) => ({ pipe, parser: new FrameParser({ trusted: true }), lastFrame: 0 }));
    const failed = (reason: string) => {
      if (this.procs !== procs || this.closed) return;
      // The run ends: what its pipes still hold is read until the next run starts.
      this.procs = [];
      this.inputs = [];
      for (const proc of procs) proc.kill('SIGKILL');
      if (!this.failing) this.options.log?.(`audio encoder ${reason}; restarting it`);
      this.failing = true;
    };
    for (const proc of procs) {
      let errors = '';
      proc.stderr!.on('data', (chunk: Buffer) => {
        if (errors.length < 2000) errors += chunk.toString();
      });
      proc.stdin!.on('error', () => {});
      proc.on('error', (error) => failed(error.message));
      proc.on('close', (code, signal) =>
        failed(
          this.stuck
            ? 'stopped answering'
            : signal
              ? `killed by ${signal}`
              : lastError(errors) || `exit ${code}`,
        ),
      );
    }
  }

  private spawnFfmpeg(): ChildProcess {
    const outputs = this.options.bitrates.flatMap((kbps, i) => [
      ...['-map', `[o${i}]`, '-c:a', 'libmp3lame', '-b:a', `${kbps}k`],
      ...['-compression_level', String(LAME_QUALITY)],
      ...['-write_xing', '0', '-id3v2_version', '0', '-flush_packets', '1', '-f', 'mp3', `pipe:${3 + i}`],
    ]);
    const split = this.options.bitrates.map((_, i) => `[o${i}]`).join('');
    return spawn(
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
  }

  /** True while a run goes on; after a failure the engine starts a new run at its next slot. */
  get running(): boolean {
    return this.procs.length > 0;
  }

  /** Mixed audio in (whole frames of 1152 sample frames). */
  write(pcm: Float32Array): void {
    if (!this.inputs.length || this.inputs.some((input) => input.destroyed)) return;
    this.unanswered ??= performance.now();
    let data: Buffer;
    if (this.limiter) {
      this.limiter.process(pcm);
      data = toS16(pcm);
    } else data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    for (const input of this.inputs) input.write(data);
  }

  /**
   * Each engine tick: takes the frames each pipe holds, then ends a run written to whose every bitrate has not
   * answered for too long.
   */
  check(now = performance.now()): void {
    this.collect(now);
    if (!this.procs.length || this.unanswered === null) return;
    // A run that has not answered yet is starting (a busy machine may take a while); one that has, stopped.
    const lastFrame = Math.min(...this.outputs.map((output) => output.lastFrame));
    const limit = lastFrame > this.startedAt ? (this.options.hangMs ?? 700) : STARTING_MS;
    if (now - Math.max(this.unanswered, lastFrame) > limit) {
      this.stuck = true;
      for (const proc of this.procs) proc.kill('SIGKILL');
    }
  }

  /** Reads what each output pipe holds (its stream then reads the kernel again, once) into the queues. */
  private collect(now: number): void {
    this.outputs.forEach((output, i) => {
      for (let chunk: Buffer | null; (chunk = output.pipe.read() as Buffer | null) !== null;) {
        output.lastFrame = now;
        for (const frame of output.parser.push(chunk)) this.queues[i]!.frames.push(frame);
      }
    });
    const since = this.unanswered;
    if (since !== null && this.outputs.every((output) => output.lastFrame >= since)) this.unanswered = null;
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
        if (queue.frames.length || slot < this.epoch || !this.procs.length) return { state: 'lost' };
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
    const procs = this.procs;
    this.procs = [];
    this.inputs = [];
    for (const proc of procs) proc.kill('SIGKILL');
    // Nothing reads them any more: closed here, or they would hold their pipes open.
    for (const { pipe } of this.outputs) pipe.destroy();
    this.outputs = [];
    for (const queue of this.queues) queue.frames.length = 0;
  }
}

/** The last line a process wrote to stderr, leaving out the LAME front end's warning about raw input. */
const lastError = (errors: string) =>
  errors
    .trim()
    .split('\n')
    .filter((line) => line && !/libsndfile/.test(line))
    .pop();
