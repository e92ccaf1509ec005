import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PeakLimiter, toS16 } from './limiter.js';
import { SAMPLE_RATE } from './pcm.js';

const LOOKAHEAD = Math.round(0.005 * SAMPLE_RATE);

/** Runs `samples` through a limiter in the engine's chunks (whole frames of 1152), answering the output. */
function limit(limiter: PeakLimiter, samples: Float32Array, chunk = 1152 * 2): Float32Array {
  const out = Float32Array.from(samples);
  for (let at = 0; at < out.length; at += chunk) limiter.process(out.subarray(at, at + chunk));
  return out;
}

const sine = (seconds: number, amplitude: number, hz = 440) =>
  Float32Array.from(
    { length: Math.round(seconds * SAMPLE_RATE) * 2 },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * Math.floor(i / 2)) / SAMPLE_RATE),
  );

describe('master limiter', () => {
  it('never lets a sample past the limit, whatever the audio and however it is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.float({ min: Math.fround(0.1), max: Math.fround(1), noNaN: true }),
        fc.array(fc.float({ min: -8, max: 8, noNaN: true }), { minLength: 2, maxLength: 4000 }),
        fc.integer({ min: 1, max: 3000 }),
        (ceiling, values, chunk) => {
          const samples = Float32Array.from(values.length % 2 ? [...values, 0] : values);
          const out = limit(new PeakLimiter(ceiling), samples, chunk * 2);
          expect(out.length).toBe(samples.length);
          for (const sample of out) expect(Math.abs(sample)).toBeLessThanOrEqual(ceiling * 1.0001);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leaves audio under the limit as it was, only the lookahead later', () => {
    const input = sine(0.5, 0.5);
    const out = limit(new PeakLimiter(0.9), input);
    for (let i = 0; i < LOOKAHEAD * 2; i++) expect(out[i]).toBe(0);
    for (let i = LOOKAHEAD * 2; i < out.length; i++) expect(out[i]).toBeCloseTo(input[i - LOOKAHEAD * 2]!, 6);
  });

  it('turns a loud passage down smoothly, ahead of it, and recovers within the release', () => {
    // A steady level: quiet, then 0.3 s at twice the limit, then quiet again, so every sample shows the gain.
    const level = (seconds: number, value: number) =>
      new Float32Array(Math.round(seconds * SAMPLE_RATE) * 2).fill(value);
    const input = Float32Array.from([...level(0.3, 0.25), ...level(0.3, 1.8), ...level(0.5, 0.25)]);
    const out = limit(new PeakLimiter(0.9), input);
    const gains = Array.from(
      { length: input.length / 2 - LOOKAHEAD },
      (_, i) => out[(i + LOOKAHEAD) * 2]! / input[i * 2]!,
    );
    const loudFrom = Math.round(0.3 * SAMPLE_RATE);
    const loudTo = Math.round(0.6 * SAMPLE_RATE);
    // It falls over the lookahead before the loud passage, in even steps, to exactly the limit.
    expect(gains[loudFrom - LOOKAHEAD - 1]).toBe(1);
    for (let i = loudFrom - LOOKAHEAD; i < loudFrom; i++) {
      expect(gains[i - 1]! - gains[i]!).toBeLessThan(0.5 / LOOKAHEAD + 1e-6);
      expect(gains[i]).toBeLessThan(1);
    }
    for (let i = loudFrom; i < loudTo; i++) expect(gains[i]).toBeCloseTo(0.5, 6);
    // Full gain again within 0.3 s of its end, rising without a jump.
    expect(gains[loudTo + Math.round(0.3 * SAMPLE_RATE)]).toBeGreaterThan(0.995);
    for (let i = loudTo; i < gains.length; i++) expect(gains[i]! - gains[i - 1]!).toBeLessThan(0.01);
  });

  it('writes 16-bit PCM clipped at full scale', () => {
    const pcm = toS16(Float32Array.from([0, 0.25, -0.25, 1, -1, 1.5, -1.5]));
    expect([...new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2)]).toEqual([
      0, 8192, -8192, 32767, -32768, 32767, -32768,
    ]);
  });
});
