// Owns: encoding the mixed audio at every bitrate inside the station's process, through the LAME library.
// Must not: start processes or read pipes (encoder.ts does, where the library is missing), or pace the clock.
import type { Encoder, EncoderOptions, Taken, Written } from './encoder.js';
import { LAME_QUALITY } from './encoder-run.js';
import { lameLibrary, openLame, type LameHandle } from './lame-library.js';
import { PeakLimiter, toS16 } from './limiter.js';
import { FrameParser, type Mp3Frame } from './mp3-frames.js';
import { CHANNELS, FRAME_SAMPLES, SAMPLE_RATE } from './pcm.js';

/** One bitrate: its LAME, its frame parser and its frames, in order: `frames[0]` is stream slot `first`. */
interface Output {
  lame: LameHandle;
  parser: FrameParser;
  first: number;
  frames: Mp3Frame[];
  /** The slot of its next frame. */
  next: number;
}

const SLOT_BYTES = FRAME_SAMPLES * CHANNELS * 2;

/**
 * The mixed audio encoded to MP3 at every bitrate at once through one master limiter, as `MultiEncoder` does
 * with LAME processes, but by the LAME library in this process (decision 042): no pipes, no processes to start
 * or supervise, and the same frames (LAME at the same settings). Frame n of every bitrate is the same 1152
 * samples; a frame comes out once LAME's look-ahead is filled, a few frames after its audio goes in.
 */
export class LibraryEncoder implements Encoder {
  private readonly outputs: Output[];
  private readonly limiter: PeakLimiter;
  /** Audio written for slots not broadcast yet, for the encoder that takes over (new settings). */
  private written: Written[] = [];
  private broadcast = 0;
  private closed = false;

  /** Null where the library cannot be loaded: the caller runs `MultiEncoder` instead. */
  static open(options: EncoderOptions): LibraryEncoder | null {
    const lame = lameLibrary();
    if (!lame) return null;
    const handles: LameHandle[] = [];
    try {
      for (const kbps of options.bitrates)
        handles.push(openLame(lame, { kbps, sampleRate: SAMPLE_RATE, quality: LAME_QUALITY }));
    } catch (error) {
      for (const handle of handles) handle.close();
      options.log?.(`the LAME library cannot encode (${(error as Error).message}); LAME runs as processes`);
      return null;
    }
    return new LibraryEncoder(options, handles);
  }

  private constructor(
    private readonly options: EncoderOptions,
    handles: LameHandle[],
  ) {
    this.limiter = new PeakLimiter(options.limit);
    this.outputs = handles.map((lame) => ({
      lame,
      parser: new FrameParser({ trusted: true }),
      first: 0,
      frames: [],
      next: 0,
    }));
  }

  get bitrates(): readonly number[] {
    return this.options.bitrates;
  }

  /** Starts encoding from `slot`, fed first `written` (the audio the encoder before this one had not broadcast). */
  start(slot: number, written: Written[] = []): void {
    this.broadcast = slot;
    for (const output of this.outputs) output.first = output.next = slot;
    for (const chunk of written) {
      const skip = Math.max(0, slot - chunk.slot);
      if (skip * SLOT_BYTES < chunk.data.length)
        this.encode(chunk.slot + skip, chunk.data.subarray(skip * SLOT_BYTES));
    }
  }

  /** The audio given and not yet broadcast, for the encoder that takes over; the end of this one. */
  close(): Written[] {
    this.closed = true;
    for (const output of this.outputs) {
      output.lame.close();
      output.frames.length = 0;
    }
    return this.written;
  }

  /** Mixed audio in, whole frames of 1152 sample frames, the first of them for stream slot `slot`. */
  write(slot: number, pcm: Float32Array): void {
    if (this.closed) return;
    this.limiter.process(pcm);
    this.encode(slot, toS16(pcm));
  }

  /** Each engine tick: lets go of the audio broadcast. Nothing to supervise: nothing runs outside this process. */
  check(_now: number, slot: number): void {
    this.broadcast = Math.max(this.broadcast, slot);
    while (this.written.length && this.written[0]!.slot + this.slotsIn(this.written[0]!) <= this.broadcast)
      this.written.shift();
  }

  /** The frame of every bitrate for `slot`: 'later' while LAME still holds its audio, 'lost' when none will come. */
  take(slot: number): Taken {
    this.broadcast = Math.max(this.broadcast, slot);
    let later = false;
    for (const output of this.outputs) {
      while (output.frames.length && output.first < slot) {
        output.frames.shift();
        output.first++;
      }
      if (output.frames.length && output.first === slot) continue;
      if (output.frames.length || slot < output.first || this.closed) return { state: 'lost' };
      later = true;
    }
    if (later) return { state: 'later' };
    this.broadcast = slot + 1;
    return {
      state: 'ready',
      frames: this.outputs.map((output) => {
        output.first++;
        return output.frames.shift()!;
      }),
    };
  }

  private encode(slot: number, data: Buffer): void {
    this.written.push({ slot, data });
    const samples = new Int16Array(data.buffer, data.byteOffset, data.length / 2);
    for (const output of this.outputs) {
      for (const frame of output.parser.push(output.lame.encode(samples, samples.length / CHANNELS))) {
        const at = output.next++;
        if (at < output.first + output.frames.length) continue;
        output.frames.push(frame);
      }
    }
  }

  private slotsIn(chunk: Written): number {
    return chunk.data.length / SLOT_BYTES;
  }
}
