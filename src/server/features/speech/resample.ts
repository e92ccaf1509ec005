import { CHANNELS, SAMPLE_RATE } from '../../radio/pcm.js';
import { SPEECH_RATE } from './recogniser.js';

/** A low-pass below the speech rate's Nyquist (7.2 kHz against 8), 31 taps of a Blackman-windowed sinc. */
const TAPS = 31;
const HALF = (TAPS - 1) / 2;
const CUTOFF = 7200 / SAMPLE_RATE;
const KERNEL = (() => {
  const k = new Float32Array(TAPS);
  let sum = 0;
  for (let i = 0; i < TAPS; i++) {
    const n = i - HALF;
    const sinc = n === 0 ? 2 * CUTOFF : Math.sin(2 * Math.PI * CUTOFF * n) / (Math.PI * n);
    const window =
      0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (TAPS - 1));
    k[i] = sinc * window;
    sum += k[i]!;
  }
  for (let i = 0; i < TAPS; i++) k[i]! /= sum;
  return k;
})();
const STEP = SAMPLE_RATE / SPEECH_RATE;
/** A chunk whose clock is further than this from where the last ended starts afresh (a restart, a gap). */
const JUMP_SECONDS = 0.05;

/**
 * The station's mix (44.1 kHz interleaved stereo float) as speech samples (16 kHz mono 16-bit), chunk by
 * chunk, with the stream-clock second of each chunk's first sample. Each output sample is the filtered
 * input at the input sample nearest its time: half an input sample (11 µs) of jitter, nothing to a
 * recogniser, and a third of the work of interpolating.
 */
export class SpeechResampler {
  /** Mono input kept: the filter's history, then samples not yet used. */
  private mono = new Float32Array(0);
  /** Input samples between originClock and mono[0]. */
  private monoStart = 0;
  /** The next output sample, counted from `originClock`. */
  private produced = 0;
  private originClock = 0;
  private expectedClock: number | null = null;

  /** The speech samples this chunk completes, stamped with their first sample's stream-clock second. */
  push(pcm: Float32Array, clock: number): { clock: number; samples: Int16Array } | null {
    const frames = Math.floor(pcm.length / CHANNELS);
    if (this.expectedClock === null || Math.abs(clock - this.expectedClock) > JUMP_SECONDS) {
      this.mono = new Float32Array(0);
      this.monoStart = 0;
      this.originClock = clock;
      this.produced = 0;
    }
    this.expectedClock = clock + frames / SAMPLE_RATE;
    const mono = new Float32Array(this.mono.length + frames);
    mono.set(this.mono);
    for (let i = 0; i < frames; i++) {
      mono[this.mono.length + i] = (pcm[i * CHANNELS]! + pcm[i * CHANNELS + 1]!) / 2;
    }
    const offset = this.monoStart;
    const out: number[] = [];
    const firstOut = this.produced;
    for (;;) {
      const centre = Math.round(this.produced * STEP) - offset;
      if (centre + HALF >= mono.length) break;
      let acc = 0;
      for (let t = 0; t < TAPS; t++) {
        const at = centre - HALF + t;
        if (at >= 0) acc += mono[at]! * KERNEL[t]!;
      }
      out.push(Math.max(-32768, Math.min(32767, Math.round(acc * 32767))));
      this.produced++;
    }
    // Keep what the next output's filter reaches back to.
    const keepFrom = Math.max(0, Math.round(this.produced * STEP) - offset - HALF);
    this.mono = mono.slice(keepFrom);
    this.monoStart += keepFrom;
    if (out.length === 0) return null;
    return { clock: this.originClock + firstOut / SPEECH_RATE, samples: Int16Array.from(out) };
  }
}
