// Owns: the mixed audio encoded at every bitrate through one master limiter; each run supervised, replaced.
// Must not: spawn processes itself (encoder-run.ts), pace or broadcast frames (stream clock, outputs).
import { lamePath, spawnRun, type Run } from './encoder-run.js';
import { PeakLimiter, toS16 } from './limiter.js';
import type { Mp3Frame } from './mp3-frames.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS } from './pcm.js';

/** A new run may take this long to answer before it counts as stuck. */
const STARTING_MS = 3000;

/**
 * A run that answered before and stops is waited for as long as the frames it already sent cover the broadcast,
 * less what a replacement takes to answer (spawned, fed what it missed, read at the next tick): at least
 * MIN_HANG_MS (a busy machine's slow answer is not a hang), at most `hangMs`.
 */
const REPLACE_SECONDS = 0.25;
const MIN_HANG_MS = 250;
const HANG_MS = 700;

/** The frames of one slot, every bitrate, as `take` answers: ready, still to come, or never. */
export type Taken = { state: 'ready'; frames: Mp3Frame[] } | { state: 'later' | 'lost' };

/**
 * What the outputs ask of an encoder, whichever runs: the LAME library in this process (library-encoder.ts) or
 * processes (`MultiEncoder`).
 */
export interface Encoder {
  readonly bitrates: readonly number[];
  start(slot: number, written?: Written[]): void;
  close(): Written[];
  write(slot: number, pcm: Float32Array): void;
  check(now: number, slot: number): void;
  take(slot: number): Taken;
}

/** One bitrate's frames, in order, whichever run made them: `frames[0]` is stream slot `first`. */
interface Encoded {
  first: number;
  frames: Mp3Frame[];
}

/** Audio written, by the slot of its first frame: a replacement run is fed again what its predecessor missed. */
export interface Written {
  slot: number;
  data: Buffer;
}

export interface EncoderOptions {
  bitrates: readonly number[];
  /** The master limiter's ceiling, linear (sample peak, under the true-peak target). */
  limit: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
  /** The longest a run that answered before may leave audio unanswered before it is replaced. */
  hangMs?: number;
}

/**
 * The mixed audio encoded to MP3 at every bitrate at once, through one master limiter: frame n of every bitrate
 * is the same 1152 samples. Where the system has `lame`, one LAME process per bitrate behind a limiter in Node
 * (decision 027); else one ffmpeg with its own limiter.
 *
 * Supervised: a run (its processes) that dies or stops answering is replaced at once by a new run from the first
 * slot it did not answer, fed again the audio written since, so the frames already encoded and the audio mixed
 * ahead are not lost (a restart costs the 25 ms of a new encoder's delay). A hang is told by the stream clock:
 * the run is waited for while its frames cover the broadcast (see REPLACE_SECONDS). Logged once per failure.
 */
export class MultiEncoder implements Encoder {
  private run: Run | null = null;
  /** In the order of `bitrates`. */
  private readonly queues: Encoded[];
  /** Audio written for slots not broadcast yet. */
  private written: Written[] = [];
  /** The slot the current run's frames count from: the first one a run before it did not answer. */
  private runFrom = 0;
  /** The next slot to broadcast, as last asked for. */
  private broadcast = 0;
  /** The LAME that encodes each bitrate, if any, and the limiter in front of them (ffmpeg limits in its own
   * filter graph). */
  private readonly lame = lamePath();
  private readonly limiter: PeakLimiter | null;
  private failing = false;
  private closed = false;

  constructor(private readonly options: EncoderOptions) {
    this.queues = options.bitrates.map(() => ({ first: 0, frames: [] }));
    this.limiter = this.lame ? new PeakLimiter(options.limit) : null;
  }

  get bitrates(): readonly number[] {
    return this.options.bitrates;
  }

  /**
   * Starts encoding from `slot`, fed first `written` (what the encoder before this one was given for slots not
   * broadcast yet: the settings changed), then what `write` brings.
   */
  start(slot: number, written: Written[] = []): void {
    this.broadcast = slot;
    this.written = written;
    for (const queue of this.queues) queue.first = slot;
    this.startRun();
  }

  /** The audio given and not yet broadcast, for the encoder that takes over (`start`), and the end of this one. */
  close(): Written[] {
    this.closed = true;
    this.stopRun();
    for (const queue of this.queues) queue.frames.length = 0;
    return this.written;
  }

  /** Mixed audio in, whole frames of 1152 sample frames, the first of them for stream slot `slot`. */
  write(slot: number, pcm: Float32Array): void {
    let data: Buffer;
    if (this.limiter) {
      this.limiter.process(pcm);
      data = toS16(pcm);
    } else data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    this.written.push({ slot, data });
    if (this.run) this.feed(this.run, slot, data);
  }

  /**
   * Each engine tick, `slot` being the next to broadcast: takes the frames each pipe holds, then replaces a run
   * that died, or that has not answered for longer than the frames it sent cover.
   */
  check(now: number, slot: number): void {
    if (this.closed) return;
    this.broadcast = Math.max(this.broadcast, slot);
    this.collect(now);
    const run = this.run;
    if (!run) return this.startRun();
    if (!this.overdue(run, now) || run.stuck) return;
    // Timers run before Node reads its pipes: after Node itself was held up (a busy machine), the frames may
    // be waiting in the pipe. Judged again once they are read.
    run.stuck = true;
    setImmediate(() => {
      if (this.run !== run) return;
      const later = performance.now();
      this.collect(later);
      if (!this.overdue(run, later)) {
        run.stuck = false;
        return;
      }
      this.failed(run, 'stopped answering');
      this.startRun();
    });
  }

  /**
   * Whether `run` has left audio unanswered too long. A run that has not answered yet is starting (a busy
   * machine may take a while); one that has is waited for while its frames cover the broadcast.
   */
  private overdue(run: Run, now: number): boolean {
    if (run.unanswered === null) return false;
    const lastFrame = Math.min(...run.outputs.map((output) => output.lastFrame));
    const coveredSeconds = (this.answeredTo() - this.broadcast) * FRAME_SECONDS;
    const limit =
      lastFrame > run.startedAt
        ? Math.min(
            this.options.hangMs ?? HANG_MS,
            Math.max(MIN_HANG_MS, (coveredSeconds - REPLACE_SECONDS) * 1000),
          )
        : STARTING_MS;
    return now - Math.max(run.unanswered, lastFrame) > limit;
  }

  /**
   * The frame of every bitrate for `slot`, in the order of `bitrates`: 'ready' with them, 'later' while one may
   * still come, 'lost' when that slot will never be encoded (its run died before it, or it came before this run).
   */
  take(slot: number): Taken {
    this.broadcast = Math.max(this.broadcast, slot);
    let later = false;
    for (const queue of this.queues) {
      while (queue.frames.length && queue.first < slot) {
        queue.frames.shift();
        queue.first++;
      }
      if (queue.frames.length && queue.first === slot) continue;
      if (queue.frames.length || !this.run || slot < this.runFrom) return { state: 'lost' };
      later = true;
    }
    if (later) return { state: 'later' };
    this.broadcast = slot + 1;
    return {
      state: 'ready',
      frames: this.queues.map((queue) => {
        queue.first++;
        return queue.frames.shift()!;
      }),
    };
  }

  /** The first slot some bitrate has no frame for yet. */
  private answeredTo(): number {
    return Math.min(...this.queues.map((queue) => queue.first + queue.frames.length));
  }

  /**
   * A new run from the first slot not answered by every bitrate (or not broadcast yet), fed what was written for
   * it. Frames of the old run from there on are dropped: each bitrate goes on with the new run's first frame,
   * which needs no bytes of the frames before it (an MP3 frame may borrow from those before it).
   */
  private startRun(): void {
    this.stopRun();
    this.runFrom = Math.max(this.answeredTo(), this.broadcast);
    for (const queue of this.queues) queue.frames.length = Math.max(0, this.runFrom - queue.first);
    this.written = this.written.filter((chunk) => chunk.slot + this.slotsIn(chunk.data) > this.runFrom);
    const run = spawnRun(
      { lame: this.lame, bitrates: this.options.bitrates, limit: this.options.limit },
      {
        error: (failed, reason) => this.failed(failed, reason),
        close: (closed, reason, answered) => {
          if (!this.failed(closed, reason)) return;
          // A run that worked is replaced at once; one that failed before answering waits for the next tick.
          if (answered) this.startRun();
        },
      },
    );
    this.run = run;
    for (const chunk of this.written) {
      const skip = Math.max(0, this.runFrom - chunk.slot);
      this.feed(run, chunk.slot + skip, chunk.data.subarray(skip * this.slotBytes()));
    }
  }

  private feed(run: Run, slot: number, data: Buffer): void {
    if (run.inputs.some((input) => input.destroyed)) return;
    if (run.from === null) {
      run.from = slot;
      for (const output of run.outputs) output.next = slot;
    }
    run.unanswered ??= performance.now();
    for (const input of run.inputs) input.write(data);
  }

  private slotBytes(): number {
    return FRAME_SAMPLES * CHANNELS * (this.limiter ? 2 : 4);
  }

  private slotsIn(data: Buffer): number {
    return data.length / this.slotBytes();
  }

  /** Ends `run` if it is still the current one (false if not), logging once per failure. */
  private failed(run: Run, reason: string): boolean {
    if (this.run !== run || this.closed) return false;
    this.collect(performance.now());
    this.stopRun();
    if (!this.failing)
      this.options.log?.(`audio encoder ${run.stuck ? 'stopped answering' : reason}; restarting it`);
    this.failing = true;
    return true;
  }

  /**
   * Reads what each output pipe holds (its stream then reads the kernel again, once) into the queues, and lets
   * go of the audio broadcast.
   */
  private collect(now: number): void {
    // Kept until broadcast: a replacement run is fed from its first unanswered slot, a new encoder (new
    // settings) from the next slot to broadcast.
    while (
      this.written.length &&
      this.written[0]!.slot + this.slotsIn(this.written[0]!.data) <= this.broadcast
    )
      this.written.shift();
    const run = this.run;
    if (!run) return;
    run.outputs.forEach((output, i) => {
      const queue = this.queues[i]!;
      for (let chunk: Buffer | null; (chunk = output.pipe.read() as Buffer | null) !== null;) {
        output.lastFrame = now;
        for (const frame of output.parser.push(chunk)) {
          const slot = output.next++;
          const next = queue.first + queue.frames.length;
          if (slot < next) continue;
          if (slot > next) {
            queue.frames.length = 0;
            queue.first = slot;
          }
          queue.frames.push(frame);
          if (this.failing) {
            this.failing = false;
            this.options.log?.('audio encoder back');
          }
        }
      }
    });
    const since = run.unanswered;
    if (since !== null && run.outputs.every((output) => output.lastFrame >= since)) run.unanswered = null;
  }

  private stopRun(): void {
    const run = this.run;
    this.run = null;
    if (!run) return;
    for (const proc of run.procs) proc.kill('SIGKILL');
    // Nothing reads them any more: closed here, or they would hold their pipes open.
    for (const { pipe } of run.outputs) pipe.destroy();
  }
}
