// Owns: bringing a live source to the loudness target as it plays (short-term loudness, a slow-moving gain).
// Must not: limit peaks (the limiters around it do) nor level files (measured ahead, autodj-deck.ts).
import { CHANNELS, SAMPLE_RATE } from './pcm.js';
import { kWeighting } from './meter.js';

/** Loudness is measured over 100 ms blocks, as EBU R128's meters are. */
const BLOCK_FRAMES = SAMPLE_RATE / 10;
/** Short-term loudness: the last 3 s (EBU Tech 3341). */
const WINDOW_BLOCKS = 30;
/** A decision needs this many blocks of sound in the window: the first loud 400 ms pass as they came (the limiter
 * holds them). */
const MIN_BLOCKS = 4;
/** A block this far below the target is a pause, breath or silence: it is not measured, so nothing is pumped up. */
const GATE_LU = 20;
/** How far the gain may go, in dB: a whisper is not lifted into hiss, a very loud station is brought down. */
const MIN_GAIN_DB = -24;
const MAX_GAIN_DB = 10;
/** How fast the gain may move, in dB per second: down fast (a loud source is not blasted), up gently. */
const DOWN_DB_PER_SECOND = 6;
const UP_DB_PER_SECOND = 1.5;

/**
 * Brings a live source (a presenter's encoder, a station elsewhere) to the station's loudness target as it
 * plays, as a broadcast AGC does: it measures the short-term loudness of what comes in (K-weighted, 3 s) and
 * moves the gain towards the target, down quickly and up slowly, holding it through pauses and silence.
 * Files are levelled from their measured loudness instead; the encoder's limiter catches what a rising gain
 * lets past the ceiling. Works in place on the pipeline's interleaved stereo samples.
 */
export class LoudnessLeveller {
  private readonly filters = kWeighting(SAMPLE_RATE);
  /** Filter state: per channel, per biquad, the last two inputs and outputs. */
  private readonly state = new Float64Array(CHANNELS * 2 * 4);
  private readonly blocks = new Float64Array(WINDOW_BLOCKS);
  private measured = 0;
  private blockEnergy = 0;
  private blockFrames = 0;
  private gainDb = 0;
  private gain = 1;
  /** The gain moves to this by the end of the current block, a step each sample: no zipper noise. */
  private step = 0;

  /** A block's mean square energy at or under this is not measured (GATE_LU under the target). */
  private readonly gate: number;

  constructor(private readonly targetLufs: number) {
    this.gate = 10 ** ((targetLufs - GATE_LU + 0.691) / 10);
  }

  /** The gain applied now, in dB. */
  get currentGainDb(): number {
    return 20 * Math.log10(this.gain);
  }

  /** Levels interleaved stereo samples in place. */
  process(samples: Float32Array): void {
    for (let i = 0; i + 1 < samples.length; i += CHANNELS) {
      const left = samples[i]!;
      const right = samples[i + 1]!;
      this.blockEnergy += this.weigh(left, 0) ** 2 + this.weigh(right, 1) ** 2;
      this.gain += this.step;
      samples[i] = left * this.gain;
      samples[i + 1] = right * this.gain;
      if (++this.blockFrames === BLOCK_FRAMES) this.endBlock();
    }
  }

  private weigh(sample: number, channel: number): number {
    let x = sample;
    for (let f = 0; f < 2; f++) {
      const { b0, b1, b2, a1, a2 } = this.filters[f]!;
      const s = (channel * 2 + f) * 4;
      const st = this.state;
      const y = b0 * x + b1 * st[s]! + b2 * st[s + 1]! - a1 * st[s + 2]! - a2 * st[s + 3]!;
      st[s + 1] = st[s]!;
      st[s] = x;
      st[s + 3] = st[s + 2]!;
      st[s + 2] = y;
      x = y;
    }
    return x;
  }

  private endBlock(): void {
    this.blocks[this.measured++ % WINDOW_BLOCKS] = this.blockEnergy / BLOCK_FRAMES;
    this.blockEnergy = 0;
    this.blockFrames = 0;
    // Only blocks of sound count (a gate, as R128's): pauses and silence neither lower the measure nor lift the gain.
    let energy = 0;
    let counted = 0;
    for (let b = 0; b < Math.min(this.measured, WINDOW_BLOCKS); b++) {
      if (this.blocks[b]! <= this.gate) continue;
      energy += this.blocks[b]!;
      counted++;
    }
    if (counted >= MIN_BLOCKS) {
      const loudness = -0.691 + 10 * Math.log10(energy / counted);
      const wanted = Math.min(MAX_GAIN_DB, Math.max(MIN_GAIN_DB, this.targetLufs - loudness));
      const move = wanted - this.gainDb;
      this.gainDb += Math.max(-DOWN_DB_PER_SECOND / 10, Math.min(UP_DB_PER_SECOND / 10, move));
    }
    this.step = (10 ** (this.gainDb / 20) - this.gain) / BLOCK_FRAMES;
  }
}
