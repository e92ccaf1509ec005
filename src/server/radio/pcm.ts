// Owns: the pipeline's one internal format (float stereo, 44.1 kHz), fades, and decoded audio queued to mix.
// Must not: run processes or choose sources; every part of the air decodes to it and mixes from it.
/**
 * The pipeline's one internal format (docs/decisions/024-audio-pipeline-on-ffmpeg.md): 32-bit float,
 * interleaved stereo at 44.1 kHz. Every source is decoded to it; the encoder cuts it into MP3 frames of 1152
 * samples, so one frame of every bitrate is the same 26.12 ms of audio.
 */
export const SAMPLE_RATE = 44_100;
export const CHANNELS = 2;
export const FRAME_SAMPLES = 1152;
export const FRAME_SECONDS = FRAME_SAMPLES / SAMPLE_RATE;
/** ffmpeg's name for the format, and its options as an input or an output. */
export const PCM_ARGS = ['-f', 'f32le', '-ar', String(SAMPLE_RATE), '-ac', String(CHANNELS)];

/**
 * An equal-power fade over `length` sample frames, of which `done` are behind: out follows a cosine to silence,
 * in a sine to full level. Plain numbers rather than a gain function: a function called per sample returned each
 * gain as a new heap number, megabytes a second of garbage during every crossfade.
 */
export interface Fade {
  direction: 'in' | 'out';
  length: number;
  done: number;
}

/** The fade's gain at its sample frame `i`; past its end, silence for a fade out and full level for a fade in. */
export function fadeGain(fade: Fade, i: number): number {
  if (i >= fade.length) return fade.direction === 'out' ? 0 : 1;
  const angle = (i / fade.length) * (Math.PI / 2);
  return fade.direction === 'out' ? Math.cos(angle) : Math.sin(angle);
}

/**
 * Float samples as a pipe delivers them, in whole frames of `channels`: a byte count that splits a frame is kept
 * for the next chunk.
 */
export class FloatFrames {
  private partial: Buffer | null = null;

  constructor(private readonly channels: number) {}

  /** The whole frames this chunk completes, or null when it completes none. */
  push(bytes: Buffer): Float32Array | null {
    const buf = this.partial ? Buffer.concat([this.partial, bytes]) : bytes;
    const whole = buf.length - (buf.length % (4 * this.channels));
    this.partial = whole < buf.length ? Buffer.from(buf.subarray(whole)) : null;
    if (whole === 0) return null;
    // Viewed where it is (a pipe's read is a buffer of its own); copied when it sits at an offset a
    // Float32Array cannot view.
    const aligned = buf.byteOffset % 4 === 0 ? buf : new Uint8Array(buf.subarray(0, whole));
    return new Float32Array(aligned.buffer, aligned.byteOffset, whole / 4);
  }

  clear(): void {
    this.partial = null;
  }
}

/**
 * Decoded audio waiting to be mixed: chunks as the decoder's pipe delivered them, read in sample frames.
 * A byte count that splits a sample is kept for the next chunk.
 */
export class PcmQueue {
  /** `shape` works on each chunk in place as it arrives (a live source's leveller). */
  constructor(private readonly shape?: (samples: Float32Array) => void) {}

  private chunks: Float32Array[] = [];
  private head = 0;
  private readonly frames = new FloatFrames(CHANNELS);
  /** Sample frames (one left and one right sample) queued. */
  available = 0;
  /** Sample frames ever queued. */
  received = 0;

  push(bytes: Buffer): void {
    const samples = this.frames.push(bytes);
    if (!samples) return;
    this.shape?.(samples);
    this.chunks.push(samples);
    this.available += samples.length / CHANNELS;
    this.received += samples.length / CHANNELS;
  }

  /**
   * Adds up to `frames` sample frames into `out` from sample frame `at`, each multiplied by the fade's gain
   * (from its `done`, which this read does not move). Returns how many it had.
   */
  mixInto(out: Float32Array, at: number, frames: number, fade: Fade | null = null): number {
    return this.take(frames, (chunk, head, done, take) => {
      for (let f = 0; f < take; f++) {
        const gain = fade ? fadeGain(fade, fade.done + done + f) : 1;
        const src = head + f * CHANNELS;
        const dst = (at + done + f) * CHANNELS;
        out[dst] = out[dst]! + chunk[src]! * gain;
        out[dst + 1] = out[dst + 1]! + chunk[src + 1]! * gain;
      }
    });
  }

  /** Drops up to `frames` sample frames from the front, unheard; returns how many. */
  drop(frames: number): number {
    return this.take(frames);
  }

  /** Takes up to `frames` sample frames from the front, handing each chunk's share to `use`; returns how many. */
  private take(
    frames: number,
    use?: (chunk: Float32Array, head: number, done: number, take: number) => void,
  ): number {
    let done = 0;
    while (done < frames && this.chunks.length) {
      const chunk = this.chunks[0]!;
      const take = Math.min(frames - done, (chunk.length - this.head) / CHANNELS);
      use?.(chunk, this.head, done, take);
      done += take;
      this.head += take * CHANNELS;
      if (this.head >= chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.available -= done;
    return done;
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.frames.clear();
    this.available = 0;
  }
}
