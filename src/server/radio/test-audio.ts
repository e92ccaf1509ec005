import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from './ffmpeg.js';

const run = promisify(execFile);

/** A fresh temporary folder for generated audio. */
export const tempAudioDir = () => mkdtemp(join(tmpdir(), 'radio-test-'));

/**
 * Makes a small MP3 with ffmpeg (tests use these rather than the shipped recording).
 * `extra` adds ffmpeg output options, e.g. ID3 tags.
 */
export async function makeMp3(
  path: string,
  options: {
    seconds?: number;
    frequency?: number;
    bitrate?: string;
    sampleRate?: number;
    extra?: string[];
  } = {},
): Promise<string> {
  const { seconds = 3, frequency = 440, bitrate = '128k', sampleRate = 44100, extra = [] } = options;
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:duration=${seconds}:sample_rate=${sampleRate}`,
    '-c:a',
    'libmp3lame',
    '-b:a',
    bitrate,
    ...extra,
    path,
  ]);
  return path;
}

/**
 * Makes a tone in any format ffmpeg writes, chosen by the file's extension (or `codec`): `seconds` of a sine
 * whose peak is `peakDbfs` on every channel, after `leadSilence` and before `tailSilence` seconds of silence.
 * A stereo sine peaking at P dBFS measures P LUFS (BS.1770's calibration), a mono one P - 3 LUFS.
 */
export async function makeTone(
  path: string,
  options: {
    seconds?: number;
    frequency?: number;
    peakDbfs?: number;
    sampleRate?: number;
    channels?: 1 | 2;
    leadSilence?: number;
    tailSilence?: number;
    /** More inputs (`-i cover.png`), given after the tone's. */
    inputs?: readonly string[];
    codec?: readonly string[];
    extra?: readonly string[];
  } = {},
): Promise<string> {
  const {
    seconds = 3,
    frequency = 1000,
    peakDbfs = -20,
    sampleRate = 44100,
    channels = 2,
    leadSilence = 0,
    tailSilence = 0,
    inputs = [],
    codec = [],
    extra = [],
  } = options;
  const amplitude = 10 ** (peakDbfs / 20);
  const tone = `${amplitude}*sin(2*PI*${frequency}*t)*between(t,${leadSilence},${leadSilence + seconds})`;
  const total = leadSilence + seconds + tailSilence;
  await run(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `aevalsrc='${Array(channels).fill(tone).join('|')}':s=${sampleRate}:d=${total}`],
    ...inputs,
    ...codec,
    ...extra,
    path,
  ]);
  return path;
}
