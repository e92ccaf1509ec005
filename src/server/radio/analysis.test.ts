import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from './ffmpeg.js';
import { analyseAudio, cuePoints, SilentAudioError } from './analysis.js';
import { mpg123Path } from './mpg123.js';
import { ebur128, makeAudio, makeTone, tempAudioDir } from './test-audio.js';

let dir: string;
beforeAll(async () => {
  dir = await tempAudioDir();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('analyseAudio', () => {
  it.each([
    // BS.1770: a stereo 1 kHz sine peaking at P dBFS measures P LUFS; mono measures 3 dB less.
    ['a stereo WAV at -20 dBFS', 'a.wav', { peakDbfs: -20 }, -20],
    ['a stereo WAV at -8 dBFS', 'b.wav', { peakDbfs: -8 }, -8],
    ['a mono 22.05 kHz WAV at -14 dBFS', 'c.wav', { peakDbfs: -14, channels: 1, sampleRate: 22050 }, -17],
    ['a 48 kHz FLAC at -26 dBFS', 'd.flac', { peakDbfs: -26, sampleRate: 48000 }, -26],
    ['an MP3 at -16 dBFS', 'e.mp3', { peakDbfs: -16, codec: ['-b:a', '192k'] }, -16],
  ] as const)('measures %s within 0.5 LU, its true peak and duration', async (_c, name, tone, lufs) => {
    const file = await makeTone(join(dir, name), { seconds: 4, ...tone });
    const result = await analyseAudio(file);
    expect(result.loudnessLufs).toBeGreaterThan(lufs - 0.5);
    expect(result.loudnessLufs).toBeLessThan(lufs + 0.5);
    expect(Math.abs(result.truePeakDbtp - tone.peakDbfs)).toBeLessThan(0.5);
    expect(result.durationSeconds).toBeCloseTo(4, 1);
    expect(result.cueInSeconds).toBeLessThan(0.05);
    expect(result.cueOutSeconds).toBeGreaterThan(3.95);
  });

  it.skipIf(!mpg123Path())('measures an MP3 through mpg123 as ffmpeg measures it', async () => {
    const file = await makeAudio(join(dir, 'sermon.mp3'), 'anoisesrc=color=pink:seed=7', {
      seconds: 12,
      filter: 'volume=0:enable=lt(t\\,1.2)+gt(t\\,10.5),tremolo=f=2:d=0.6',
    });
    const [result, reference] = await Promise.all([analyseAudio(file), ebur128(file)]);
    // Measured here to the hundredth, not read from ffmpeg's report, which gives tenths.
    expect(Number.isInteger(Math.round(result.loudnessLufs * 1000) / 100)).toBe(false);
    expect(Math.abs(result.loudnessLufs - reference.lufs)).toBeLessThan(0.1);
    expect(Math.abs(result.truePeakDbtp - reference.truePeak)).toBeLessThan(0.3);
    expect(result.durationSeconds).toBeCloseTo(12, 1);
    expect(result.cueInSeconds).toBeCloseTo(1.2, 1);
    expect(result.cueOutSeconds).toBeCloseTo(10.5, 1);
  });

  it('finds where sound starts and ends past leading and trailing silence', async () => {
    const file = await makeTone(join(dir, 'padded.flac'), {
      seconds: 3,
      leadSilence: 1.5,
      tailSilence: 2,
    });
    const result = await analyseAudio(file);
    expect(result.durationSeconds).toBeCloseTo(6.5, 1);
    expect(result.cueInSeconds).toBeCloseTo(1.5, 1);
    expect(result.cueOutSeconds).toBeCloseTo(4.5, 1);
    // Silence around the sound does not change its loudness (the meter's gate leaves it out).
    expect(Math.abs(result.loudnessLufs + 20)).toBeLessThan(0.5);
  });

  it('keeps a pause in the middle: only silence at either end is trimmed', async () => {
    const file = await makeTone(join(dir, 'pause.wav'), { seconds: 1 });
    const quiet = await makeTone(join(dir, 'quiet.wav'), { seconds: 1, peakDbfs: -200 });
    const gapped = join(dir, 'gapped.wav');
    execFileSync(ffmpegPath(), [
      ...['-v', 'error', '-y', '-i', file, '-i', quiet, '-i', file],
      ...['-filter_complex', '[0][1][2]concat=n=3:v=0:a=1', gapped],
    ]);
    const result = await analyseAudio(gapped);
    expect(result.cueInSeconds).toBeLessThan(0.05);
    expect(result.cueOutSeconds).toBeCloseTo(3, 1);
  });

  it('refuses a silent file, and one ffmpeg cannot decode', async () => {
    const silent = await makeTone(join(dir, 'silent.wav'), { peakDbfs: -200 });
    await expect(analyseAudio(silent)).rejects.toBeInstanceOf(SilentAudioError);
    const text = join(dir, 'text.mp3');
    await writeFile(text, 'Not a song\n'.repeat(100));
    await expect(analyseAudio(text)).rejects.toThrow(/could not decode/);
  });
});

describe('cuePoints', () => {
  it.each([
    ['no silence', [], 10, 0, 10],
    ['silence at the start only', [{ start: 0, end: 1.2 }], 10, 1.2, 10],
    ['silence at the end, reported as ending there', [{ start: 8.5, end: 10 }], 10, 0, 8.5],
    ['silence at the end, never reported as ending', [{ start: 8.5, end: null }], 10, 0, 8.5],
    ['a pause in the middle', [{ start: 4, end: 5 }], 10, 0, 10],
    [
      'both ends',
      [
        { start: 0, end: 0.7 },
        { start: 4, end: 5 },
        { start: 9, end: null },
      ],
      10,
      0.7,
      9,
    ],
  ])('%s', (_c, silences, duration, cueIn, cueOut) => {
    expect(cuePoints(silences, duration)).toEqual({ cueInSeconds: cueIn, cueOutSeconds: cueOut });
  });
});
