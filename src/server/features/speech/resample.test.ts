import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../../radio/pcm.js';
import { SPEECH_RATE } from './recogniser.js';
import { SpeechResampler } from './resample.js';

/** Interleaved stereo of a sine, `seconds` long, from sample `from`. */
function sine(hz: number, from: number, frames: number, right = 1): Float32Array {
  const out = new Float32Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    const v = 0.5 * Math.sin((2 * Math.PI * hz * (from + i)) / SAMPLE_RATE);
    out[i * 2] = v;
    out[i * 2 + 1] = v * right;
  }
  return out;
}

const rms = (s: Int16Array, from = 100) => {
  let sum = 0;
  for (let i = from; i < s.length - 100; i++) sum += (s[i]! / 32767) ** 2;
  return Math.sqrt(sum / (s.length - from - 100));
};

function run(hz: number, chunks: number[]): { clock: number; samples: Int16Array } {
  const r = new SpeechResampler();
  const parts: Int16Array[] = [];
  let first: number | null = null;
  let at = 0;
  for (const frames of chunks) {
    const got = r.push(sine(hz, at, frames), 10 + at / SAMPLE_RATE);
    at += frames;
    if (got) {
      first ??= got.clock;
      parts.push(got.samples);
    }
  }
  const all = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return { clock: first!, samples: all };
}

describe('SpeechResampler', () => {
  it('gives 16 kHz mono on the same clock, whatever the chunk sizes', () => {
    const even = run(440, Array(50).fill(1152));
    const ragged = run(440, [7, 1000, 3, 20_000, 1, 4577, 30_000]);
    expect(even.clock).toBe(10);
    expect(ragged.clock).toBe(10);
    const seconds = (1152 * 50) / SAMPLE_RATE;
    expect(even.samples.length).toBeGreaterThan(seconds * SPEECH_RATE - 20);
    expect(even.samples.length).toBeLessThanOrEqual(seconds * SPEECH_RATE);
    const n = Math.min(even.samples.length, ragged.samples.length);
    expect(Array.from(ragged.samples.subarray(0, n))).toEqual(Array.from(even.samples.subarray(0, n)));
  });

  it('keeps speech frequencies and removes what would fold back below 8 kHz', () => {
    expect(rms(run(1000, [44_100]).samples)).toBeCloseTo(0.5 / Math.SQRT2, 1);
    expect(rms(run(12_000, [44_100]).samples)).toBeLessThan(0.01);
  });

  it('mixes both channels: opposite channels cancel', () => {
    const r = new SpeechResampler();
    const got = r.push(sine(1000, 0, 44_100, -1), 0)!;
    expect(rms(got.samples)).toBeLessThan(0.001);
  });

  it('starts afresh when the clock jumps', () => {
    const r = new SpeechResampler();
    r.push(sine(440, 0, 4410), 5);
    const after = r.push(sine(440, 0, 4410), 50)!;
    expect(after.clock).toBe(50);
  });
});
