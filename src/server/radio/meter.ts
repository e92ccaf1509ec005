// Owns: EBU R128 loudness, true peak and silence measured from decoded samples, as ffmpeg's filters do.
// Must not: decode or run processes; it measures the samples it is handed.
/**
 * What `analyseAudio` learns from ffmpeg's `ebur128` and `silencedetect` filters, measured in the station's own
 * process from decoded samples instead (an MP3 decoded by mpg123, docs/decisions/028): EBU R128 integrated
 * loudness (ITU-R BS.1770-4: K-weighting, 400 ms blocks every 100 ms, the absolute and relative gates), the true
 * peak (4x oversampled, as libebur128 does), and silence as silencedetect reports it. It holds one float per
 * 100 ms of audio and a few filters' state, whatever the file's length.
 */

/** BS.1770's absolute gate, LUFS. */
const ABSOLUTE_GATE_LUFS = -70;
/** BS.1770's relative gate, LU under the loudness of the blocks above the absolute gate. */
const RELATIVE_GATE_LU = -10;
/** The 400 ms gating block is four 100 ms steps. */
const STEPS_PER_BLOCK = 4;
/** True-peak oversampling (BS.1770 Annex 2, for rates under 96 kHz) and its interpolating filter's length. */
const OVERSAMPLING = 4;
const INTERPOLATOR_TAPS = 49;

export interface Silence {
  start: number;
  /** Null when it lasts to the end of the audio. */
  end: number | null;
}

export interface Measurement {
  durationSeconds: number;
  /** -Infinity when no block passes the absolute gate: nothing to hear. */
  loudnessLufs: number;
  truePeakDbtp: number;
  silences: Silence[];
}

/** A second-order IIR section, direct form I. */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * BS.1770's K-weighting (a high shelf, then a high pass) for any sample rate, recomputed from the analogue
 * prototype as libebur128 does; at 48 kHz it gives the coefficients the recommendation lists. The live
 * leveller weighs what it hears with it too.
 */
export function kWeighting(sampleRate: number): [Biquad, Biquad] {
  let K = Math.tan((Math.PI * 1681.974450955533) / sampleRate);
  let Q = 0.7071752369554196;
  const Vh = 10 ** (3.999843853973347 / 20);
  const Vb = Vh ** 0.4996667741545416;
  let a0 = 1 + K / Q + K * K;
  const shelf = {
    b0: (Vh + (Vb * K) / Q + K * K) / a0,
    b1: (2 * (K * K - Vh)) / a0,
    b2: (Vh - (Vb * K) / Q + K * K) / a0,
    a1: (2 * (K * K - 1)) / a0,
    a2: (1 - K / Q + K * K) / a0,
  };
  K = Math.tan((Math.PI * 38.13547087602444) / sampleRate);
  Q = 0.5003270373238773;
  a0 = 1 + K / Q + K * K;
  const highPass = { b0: 1, b1: -2, b2: 1, a1: (2 * (K * K - 1)) / a0, a2: (1 - K / Q + K * K) / a0 };
  return [shelf, highPass];
}

/** How many output samples the true-peak meter bounds at once before working them out. */
const PEAK_BLOCK = 32;

/**
 * One channel's true peak: the largest magnitude of the signal oversampled 4x by a 49-tap Hann-windowed sinc
 * interpolator (libebur128's design), or of the samples themselves. Each phase is only worked out where it could
 * pass the peak so far: the sum of a phase's absolute taps times the largest nearby sample bounds its output, so
 * quiet stretches of a long file cost one comparison a sample.
 */
export class TruePeak {
  /** Phases 1 to 3 of the interpolator (phase 0 is the samples themselves), each applied to the last inputs. */
  private readonly phases: Float64Array[];
  private readonly order: number;
  private readonly gain: number;
  /** The last `order` inputs, then the chunk being measured. */
  private inputs: Float64Array;
  peak = 0;

  constructor() {
    const phases = Array.from({ length: OVERSAMPLING }, () => [] as number[]);
    for (let j = 0; j < INTERPOLATOR_TAPS; j++) {
      const m = j - (INTERPOLATOR_TAPS - 1) / 2;
      const x = (m * Math.PI) / OVERSAMPLING;
      const sinc = m === 0 ? 1 : Math.sin(x) / x;
      const hann = 0.5 * (1 - Math.cos((2 * Math.PI * j) / (INTERPOLATOR_TAPS - 1)));
      phases[j % OVERSAMPLING]!.push(sinc * hann);
    }
    this.phases = phases.slice(1).map((taps) => Float64Array.from(taps));
    this.order = this.phases[0]!.length;
    this.gain = Math.max(...this.phases.map((taps) => taps.reduce((sum, tap) => sum + Math.abs(tap), 0)));
    this.inputs = new Float64Array(this.order + 4096);
  }

  /** Channel `channel` of interleaved samples with `channels` channels. */
  push(samples: Float32Array, channel: number, channels: number): void {
    const { order } = this;
    const count = Math.floor(samples.length / channels);
    if (this.inputs.length < order + count) {
      const grown = new Float64Array(order + count);
      grown.set(this.inputs.subarray(0, order));
      this.inputs = grown;
    }
    const x = this.inputs;
    let peak = this.peak;
    for (let i = 0; i < count; i++) {
      const value = samples[i * channels + channel]!;
      x[order + i] = value;
      if (Math.abs(value) > peak) peak = Math.abs(value);
    }
    for (let from = order; from < order + count; from += PEAK_BLOCK) {
      const to = Math.min(order + count, from + PEAK_BLOCK);
      let nearby = 0;
      for (let i = from - order + 1; i < to; i++) if (Math.abs(x[i]!) > nearby) nearby = Math.abs(x[i]!);
      if (nearby * this.gain <= peak) continue;
      for (const taps of this.phases)
        for (let n = from; n < to; n++) {
          let y = 0;
          for (let k = 0; k < order; k++) y += taps[k]! * x[n - k]!;
          if (Math.abs(y) > peak) peak = Math.abs(y);
        }
    }
    this.peak = peak;
    x.copyWithin(0, count, count + order);
  }
}

/**
 * Measures interleaved float samples as they arrive, in chunks of whole frames cut anywhere: `result` gives the
 * duration, integrated loudness, true peak and silences of everything pushed so far.
 */
export class AudioMeter {
  private readonly filters: [Biquad, Biquad];
  /** Per channel: the two sections' last two inputs and outputs. */
  private readonly state: Float64Array[];
  private readonly samplesPerStep: number;
  private samplesInStep = 0;
  /** Sum over channels of the K-weighted squares in the step being filled, and in the last steps. */
  private stepEnergy = 0;
  private readonly lastSteps: number[] = [];
  /** Each full block's mean square, weighted and summed over channels. */
  private blocks = new Float64Array(1024);
  private blockCount = 0;

  private readonly peaks: TruePeak[];

  private readonly silenceThreshold: number;
  private readonly silenceNotify: number;
  private quietRun = 0;
  private inSilence = false;
  private readonly silences: Silence[] = [];
  private frames = 0;

  constructor(
    readonly sampleRate: number,
    readonly channels: number,
    silence: { db: number; seconds: number },
  ) {
    this.filters = kWeighting(sampleRate);
    this.state = Array.from({ length: channels }, () => new Float64Array(8));
    this.samplesPerStep = Math.round(sampleRate / 10);
    this.peaks = Array.from({ length: channels }, () => new TruePeak());
    this.silenceThreshold = 10 ** (silence.db / 20);
    // As silencedetect counts: samples of every channel, in a row, below the threshold.
    this.silenceNotify = Math.round(silence.seconds * sampleRate) * channels;
  }

  /** Interleaved samples, whole frames. */
  push(samples: Float32Array): void {
    const { channels } = this;
    const [shelf, highPass] = this.filters;
    for (let at = 0; at + channels <= samples.length; at += channels) {
      let energy = 0;
      for (let c = 0; c < channels; c++) {
        const x = samples[at + c]!;
        this.silence(x);
        const s = this.state[c]!;
        // s: shelf x1 x2 y1 y2, high pass y1 y2 (its inputs are the shelf's outputs y1 y2).
        const y = shelf.b0 * x + shelf.b1 * s[0]! + shelf.b2 * s[1]! - shelf.a1 * s[2]! - shelf.a2 * s[3]!;
        const z = y + highPass.b1 * s[2]! + highPass.b2 * s[3]! - highPass.a1 * s[4]! - highPass.a2 * s[5]!;
        s[1] = s[0]!;
        s[0] = x;
        s[3] = s[2]!;
        s[2] = y;
        s[5] = s[4]!;
        s[4] = z;
        energy += z * z;
      }
      this.stepEnergy += energy;
      this.frames++;
      if (++this.samplesInStep === this.samplesPerStep) this.endStep();
    }
    for (let c = 0; c < channels; c++) this.peaks[c]!.push(samples, c, channels);
  }

  private endStep(): void {
    this.lastSteps.push(this.stepEnergy);
    this.stepEnergy = 0;
    this.samplesInStep = 0;
    if (this.lastSteps.length > STEPS_PER_BLOCK) this.lastSteps.shift();
    if (this.lastSteps.length < STEPS_PER_BLOCK) return;
    if (this.blockCount === this.blocks.length) {
      const grown = new Float64Array(this.blocks.length * 2);
      grown.set(this.blocks);
      this.blocks = grown;
    }
    const sum = this.lastSteps.reduce((a, b) => a + b, 0);
    this.blocks[this.blockCount++] = sum / (STEPS_PER_BLOCK * this.samplesPerStep);
  }

  /** silencedetect's rule, sample by sample: a run of quiet samples long enough starts a silence, any louder one ends it. */
  private silence(x: number): void {
    if (Math.abs(x) < this.silenceThreshold) {
      if (this.inSilence || ++this.quietRun < this.silenceNotify) return;
      this.inSilence = true;
      const start = (this.frames + 1 - this.silenceNotify / this.channels) / this.sampleRate;
      this.silences.push({ start: Math.max(0, start), end: null });
      return;
    }
    if (this.inSilence) this.silences.at(-1)!.end = this.frames / this.sampleRate;
    this.inSilence = false;
    this.quietRun = 0;
  }

  result(): Measurement {
    const blocks = this.blocks.subarray(0, this.blockCount);
    const lufs = (energy: number) => -0.691 + 10 * Math.log10(energy);
    const gated = (floor: number) => {
      let sum = 0;
      let count = 0;
      for (const energy of blocks)
        if (lufs(energy) > floor) {
          sum += energy;
          count++;
        }
      return count ? lufs(sum / count) : -Infinity;
    };
    const ungated = gated(ABSOLUTE_GATE_LUFS);
    const loudnessLufs =
      ungated === -Infinity ? -Infinity : gated(Math.max(ABSOLUTE_GATE_LUFS, ungated + RELATIVE_GATE_LU));
    return {
      durationSeconds: this.frames / this.sampleRate,
      loudnessLufs,
      truePeakDbtp: 20 * Math.log10(Math.max(...this.peaks.map((p) => p.peak))),
      silences: this.silences.map((s) => ({ ...s })),
    };
  }
}
