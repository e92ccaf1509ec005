import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from './ffmpeg.js';
import { LoudnessLeveller } from './leveller.js';
import { PCM_ARGS, SAMPLE_RATE } from './pcm.js';
import { ebur128, tempAudioDir } from './test-audio.js';

const run = promisify(execFile);
const TARGET = -16;
let dir: string;

beforeAll(async () => {
  dir = await tempAudioDir();
});

/** `seconds` of an ffmpeg source in the pipeline's format, scaled to `gainDb`. */
async function source(filter: string, seconds: number, gainDb: number): Promise<Float32Array> {
  const { stdout } = await run(
    ffmpegPath(),
    ['-v', 'error', '-f', 'lavfi', '-i', filter, '-t', String(seconds), '-af', `volume=${gainDb}dB`]
      .concat(PCM_ARGS)
      .concat('pipe:1'),
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4).slice();
}

/** ffmpeg's EBU R128 integrated loudness of a stretch of samples. */
async function lufs(samples: Float32Array): Promise<number> {
  const file = join(dir, `measure-${Math.random()}.f32`);
  await writeFile(file, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
  return (await ebur128(file, { inputArgs: PCM_ARGS })).lufs;
}

/** Runs samples through the leveller in uneven pieces, as a decoder's pipe delivers them. */
function level(leveller: LoudnessLeveller, samples: Float32Array, onPiece?: () => void): Float32Array {
  const out = samples.slice();
  for (let at = 0, n = 0; at < out.length; n++) {
    const frames = [1000, 4410, 377, 8192][n % 4]!;
    const end = Math.min(out.length, at + frames * 2);
    leveller.process(out.subarray(at, end));
    onPiece?.();
    at = end;
  }
  return out;
}

const seconds = (samples: Float32Array, from: number, to?: number) =>
  samples.subarray(from * SAMPLE_RATE * 2, to === undefined ? undefined : to * SAMPLE_RATE * 2);

// Music-like material: pink noise with a slow swell, so the loudness gate sees programme, not a steady tone.
const MUSIC = 'anoisesrc=color=pink:amplitude=0.5:seed=7,tremolo=f=0.7:d=0.5';
const SPEECH = 'sine=f=220,tremolo=f=4:d=0.9';

describe('Live loudness leveller', () => {
  it.each([
    ['a very loud station elsewhere (-9 LUFS)', MUSIC, 14],
    ['a quiet presenter (-26 LUFS)', SPEECH, 0],
  ])(
    'brings %s to the target within 1 LU once settled',
    async (_name, filter, gainDb) => {
      const input = await source(filter, 16, gainDb);
      const before = await lufs(seconds(input, 8));
      const output = level(new LoudnessLeveller(TARGET), input);
      const after = await lufs(seconds(output, 8));
      expect(Math.abs(before - TARGET)).toBeGreaterThan(6.5);
      expect(Math.abs(after - TARGET)).toBeLessThan(1);
    },
    30_000,
  );

  it('moves the gain smoothly, down faster than up, and holds it through silence', async () => {
    const loud = await source(MUSIC, 6, 14);
    const quiet = await source(MUSIC, 12, -5);
    const silence = new Float32Array(10 * SAMPLE_RATE * 2);
    const leveller = new LoudnessLeveller(TARGET);
    const gains: number[] = [];
    const track = () => gains.push(leveller.currentGainDb);
    level(leveller, loud, track);
    const afterLoud = leveller.currentGainDb;
    expect(afterLoud).toBeLessThan(-6);
    const silent: number[] = [];
    level(leveller, silence, () => silent.push(leveller.currentGainDb));
    gains.push(...silent);
    // Dead air lifts nothing: the gain follows only the last 3 s of sound, then holds (no hiss pumped up
    // when the mixer is muted).
    expect(Math.max(...silent)).toBeLessThan(afterLoud + 2);
    expect(silent.at(-1)).toBe(silent.at(-40));
    const beforeQuiet = leveller.currentGainDb;
    level(leveller, quiet, track);
    const rise = leveller.currentGainDb - beforeQuiet;
    // Up at 1.5 dB a second at most, so 12 s of quiet lift it by at most 18 dB.
    expect(rise).toBeGreaterThan(10);
    expect(rise).toBeLessThanOrEqual(18.1);
    // Pieces are at most 0.19 s here: no step larger than the fast (downward) rate allows.
    for (let i = 1; i < gains.length; i++) expect(Math.abs(gains[i]! - gains[i - 1]!)).toBeLessThan(1.3);
  }, 30_000);
});
