// Owns: the master look-ahead peak limiter in front of the encoders, run in the station's process.
// Must not: encode, pace or level to a loudness target; it only keeps samples under the ceiling.
import { CHANNELS, SAMPLE_RATE } from './pcm.js';

/**
 * The master limiter in front of the encoders when they are separate LAME processes (decision 027): a
 * look-ahead sample-peak limiter, as ffmpeg's `alimiter` with `level=0` is where one ffmpeg encodes.
 *
 * Each sample frame asks for a gain that keeps it under `limit`. The gain applied to a frame is the least asked
 * for within `lookahead` frames either side of it, averaged over the lookahead (so it falls in a straight line
 * and is at most what any frame within reach asked for), and it recovers with the release time. The audio
 * comes out `lookahead` frames late; as many frames come out as go in.
 */
export class PeakLimiter {
  private readonly span: number;
  private readonly delay: Float32Array;
  /** The gains asked for, newest last, as a monotonic queue of (frame, gain) for the sliding minimum. */
  private readonly queueFrames: Float64Array;
  private readonly queueGains: Float32Array;
  private head = 0;
  private tail = 0;
  /** The sliding minima of the last `span` frames, and their sum, for the average. */
  private readonly minima: Float32Array;
  private sum: number;
  private gain = 1;
  private frame = 0;
  private readonly release: number;

  constructor(
    readonly limit: number,
    options: { lookaheadSeconds?: number; releaseSeconds?: number } = {},
  ) {
    const lookahead = Math.max(1, Math.round((options.lookaheadSeconds ?? 0.005) * SAMPLE_RATE));
    this.span = lookahead + 1;
    this.delay = new Float32Array(this.span * CHANNELS);
    this.queueFrames = new Float64Array(this.span + 1);
    this.queueGains = new Float32Array(this.span + 1);
    this.minima = new Float32Array(this.span).fill(1);
    this.sum = this.span;
    this.release = 1 - Math.exp(-1 / ((options.releaseSeconds ?? 0.05) * SAMPLE_RATE));
  }

  /** Limits interleaved stereo in place (each sample replaced by the one `lookahead` frames earlier). */
  process(samples: Float32Array): void {
    const { span, delay, queueFrames, queueGains, minima, limit } = this;
    const size = queueFrames.length;
    for (let i = 0; i < samples.length; i += CHANNELS) {
      const left = samples[i]!;
      const right = samples[i + 1]!;
      const peak = Math.max(Math.abs(left), Math.abs(right));
      const asked = peak > limit ? limit / peak : 1;
      const t = this.frame++;
      // Sliding minimum over the last `span` frames.
      while (this.tail !== this.head && queueGains[(this.tail - 1 + size) % size]! >= asked)
        this.tail = (this.tail - 1 + size) % size;
      queueFrames[this.tail] = t;
      queueGains[this.tail] = asked;
      this.tail = (this.tail + 1) % size;
      if (queueFrames[this.head]! <= t - span) this.head = (this.head + 1) % size;
      const least = queueGains[this.head]!;
      // Its average over the last `span` frames: the gain for the frame `span - 1` back.
      const slot = t % span;
      this.sum += least - minima[slot]!;
      minima[slot] = least;
      const wanted = Math.min(1, this.sum / span);
      this.gain = wanted < this.gain ? wanted : this.gain + (wanted - this.gain) * this.release;
      // The delayed frame: written `span - 1` frames ago at the next slot.
      const at = slot * CHANNELS;
      const from = ((t + 1) % span) * CHANNELS;
      delay[at] = left;
      delay[at + 1] = right;
      samples[i] = delay[from]! * this.gain;
      samples[i + 1] = delay[from + 1]! * this.gain;
    }
  }
}

/** Float samples as 16-bit signed PCM in the machine's byte order (what LAME reads), clipped at full scale. */
export function toS16(samples: Float32Array): Buffer {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    out[i] = s >= 1 ? 32767 : s <= -1 ? -32768 : Math.round(s * 32767);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
