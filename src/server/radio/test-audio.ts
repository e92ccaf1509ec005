// Owns: audio made and measured with ffmpeg for the tests (tones, noise, MP3s, EBU R128, levels).
// Must not: be imported by the station itself; only tests, end-to-end tests and benches use it.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from './ffmpeg.js';

const run = promisify(execFile);

/**
 * EBU R128 integrated loudness (LUFS) and true peak (dBTP) as ffmpeg's `ebur128` measures them, of a file or
 * of `length` seconds of it from `from`; `inputArgs` name a raw input's format (e.g. PCM_ARGS).
 */
export async function ebur128(
  path: string,
  options: { from?: number; length?: number; inputArgs?: string[] } = {},
): Promise<{ lufs: number; truePeak: number }> {
  const { stderr } = await run(ffmpegPath(), [
    ...['-hide_banner', '-nostats', ...(options.from ? ['-ss', String(options.from)] : [])],
    ...(options.length ? ['-t', String(options.length)] : []),
    ...(options.inputArgs ?? []),
    ...['-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
  ]);
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary);
  if (!integrated || !peak) throw new Error(`no ebur128 summary:\n${stderr.slice(-500)}`);
  return { lufs: Number(integrated[1]), truePeak: peak[1] === '-inf' ? -Infinity : Number(peak[1]) };
}

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

/**
 * Makes an audio file from an ffmpeg source filter (`anoisesrc=color=pink`, `sine=…`), shaped by `filter`
 * and encoded as the file name says (MP3 at 128 kbps, 44.1 kHz stereo unless `extra` says otherwise).
 */
export async function makeAudio(
  path: string,
  source: string,
  options: { seconds: number; filter?: string; extra?: string[] },
): Promise<string> {
  await run(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-t', String(options.seconds), '-i', source],
    ...(options.filter ? ['-af', options.filter] : []),
    ...['-ar', '44100', '-ac', '2', ...(path.endsWith('.mp3') ? ['-b:a', '128k'] : [])],
    ...(options.extra ?? []),
    path,
  ]);
  return path;
}

/** Audio (a file, or bytes such as a listener received) decoded by ffmpeg to mono samples at 44.1 kHz. */
export function decodeMono(input: string | Buffer, filter?: string): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const proc = spawn(ffmpegPath(), [
      ...['-v', 'error', '-i', typeof input === 'string' ? input : 'pipe:0'],
      ...(filter ? ['-af', filter] : []),
      ...['-ac', '1', '-ar', '44100', '-f', 'f32le', 'pipe:1'],
    ]);
    const chunks: Buffer[] = [];
    let errors = '';
    proc.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    proc.stdin.on('error', () => {});
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg could not decode: ${errors.trim()}`));
      const bytes = Buffer.concat(chunks);
      resolve(new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4)));
    });
    proc.stdin.end(typeof input === 'string' ? undefined : input);
  });
}

/** The RMS level in dBFS of each `seconds`-long window of mono samples at 44.1 kHz (−Infinity: digital silence). */
export function windowLevels(samples: Float32Array, seconds: number): number[] {
  const size = Math.round(seconds * 44100);
  const levels: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += samples[i]! ** 2;
    levels.push(10 * Math.log10(sum / size));
  }
  return levels;
}
