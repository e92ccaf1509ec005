// Owns: measuring a library file (duration, loudness, true peak, cue points), media tools at low priority.
// Must not: decode for the air or store what it finds (the library feature stores it); it only measures.
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { ffmpegPath } from './ffmpeg.js';
import { AudioMeter, type Measurement, type Silence } from './meter.js';
import { mp3Decoding, mpg123WholeArgs, type Mp3Decoding } from './mpg123.js';
import { FloatFrames } from './pcm.js';

export interface ToolRun {
  code: number | null;
  /** The last 8 KB the tool wrote to stdout (ffmpeg's -progress report). */
  stdout: string;
  /** The last few lines of stderr, for an error message. */
  stderr: string;
}

export class ToolTimeoutError extends Error {}

/**
 * Runs ffmpeg, ffprobe or mpg123 at the lowest CPU priority on one thread, so checking and measuring files never takes
 * time from the broadcast. Killed after `timeoutMs` or when `signal` aborts.
 */
export function runMediaTool(
  path: string,
  args: string[],
  options: {
    timeoutMs: number;
    signal?: AbortSignal;
    onStderrLine?: (line: string) => void;
    /** Takes what the tool writes to stdout instead of its last 8 KB (decoded samples). */
    onStdout?: (chunk: Buffer) => void;
  },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOW);
    } catch {
      // Not allowed here (some containers): the work still runs, at normal priority.
    }
    let stdout = '';
    const lines: string[] = [];
    child.stdout.on(
      'data',
      options.onStdout ?? ((chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-8192))),
    );
    createInterface({ input: child.stderr }).on('line', (line) => {
      options.onStderrLine?.(line);
      lines.push(line);
      if (lines.length > 8) lines.shift();
    });
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      kill();
      reject(new ToolTimeoutError(`no result within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
    };
    child.once('error', (error) => {
      done();
      reject(error);
    });
    child.once('close', (code) => {
      done();
      if (options.signal?.aborted) reject(new Error('stopped'));
      else resolve({ code, stdout, stderr: lines.join('\n') });
    });
  });
}

/** The seconds ffmpeg's `-progress` report says it wrote, at its last report. */
export function progressSeconds(report: string): number {
  const times = [...report.matchAll(/^out_time_us=(\d+)$/gm)];
  const last = times.at(-1)?.[1];
  return last === undefined ? 0 : Number(last) / 1e6;
}

export interface AudioAnalysis {
  durationSeconds: number;
  /** EBU R128 integrated loudness, LUFS. */
  loudnessLufs: number;
  /** Highest true peak (4x oversampled), dBTP. */
  truePeakDbtp: number;
  /** Where sound starts and ends: leading and trailing silence lie outside. */
  cueInSeconds: number;
  cueOutSeconds: number;
}

/** Quieter than this for at least SILENCE_SECONDS counts as silence at either end. */
export const SILENCE_DB = -50;
export const SILENCE_SECONDS = 0.3;
/** A long sermon decodes in a minute or two; this only stops a file that never ends. */
export const ANALYSIS_TIMEOUT_MS = 30 * 60_000;
/** ffmpeg's integrated loudness when nothing passes its gate: the file is silent. */
const GATED_OUT_LUFS = -70;

export class SilentAudioError extends Error {
  constructor() {
    super('No sound found: the file is silent');
  }
}

/**
 * Measures the file: its duration, loudness, true peak, and where sound starts and ends. An MP3 is decoded by
 * mpg123 and measured here (docs/decisions/028), anything else by ffmpeg's filters; the two agree to a few
 * hundredths of a LU. Throws when the file does not decode, or holds no sound.
 */
export async function analyseAudio(
  path: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<AudioAnalysis> {
  const mp3 = /\.mp3$/i.test(path) ? mp3Decoding(path) : null;
  const found = mp3 ? await measureMp3(path, mp3, options) : await measureWithFfmpeg(path, options);
  if (found.durationSeconds <= 0) throw new Error('no audio decodes from the file');
  if (found.loudnessLufs <= GATED_OUT_LUFS || found.truePeakDbtp === -Infinity) throw new SilentAudioError();
  const { cueInSeconds, cueOutSeconds } = cuePoints(found.silences, found.durationSeconds);
  return {
    durationSeconds: found.durationSeconds,
    loudnessLufs: found.loudnessLufs,
    truePeakDbtp: found.truePeakDbtp,
    cueInSeconds,
    cueOutSeconds,
  };
}

const SILENCE = { db: SILENCE_DB, seconds: SILENCE_SECONDS };

/** mpg123 decodes the whole file, as it is, to float samples that an AudioMeter measures as they arrive. */
async function measureMp3(
  path: string,
  mp3: Mp3Decoding,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<Measurement> {
  const { sampleRate, channels } = mp3.header;
  const meter = new AudioMeter(sampleRate, channels, SILENCE);
  const frames = new FloatFrames(channels);
  const run = await runMediaTool(mp3.path, mpg123WholeArgs(path, mp3.header, 'f32'), {
    timeoutMs: options.timeoutMs ?? ANALYSIS_TIMEOUT_MS,
    signal: options.signal,
    onStdout: (chunk) => {
      const samples = frames.push(chunk);
      if (samples) meter.push(samples);
    },
  });
  if (run.code !== 0) throw new Error(`mpg123 could not decode the file: ${lastLine(run.stderr)}`);
  return meter.result();
}

/** Decodes the file once through ffmpeg's EBU R128 meter and its silence detector, and reads their reports. */
async function measureWithFfmpeg(
  path: string,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<Measurement> {
  const silences: Silence[] = [];
  let inSummary = false;
  let loudness: number | null = null;
  let peak: number | null = null;
  const run = await runMediaTool(
    ffmpegPath(),
    [
      ...['-nostdin', '-hide_banner', '-nostats', '-threads', '1', '-protocol_whitelist', 'file'],
      ...['-i', path, '-map', '0:a:0', '-vn'],
      '-af',
      `ebur128=peak=true:framelog=verbose,silencedetect=noise=${SILENCE_DB}dB:duration=${SILENCE_SECONDS}`,
      ...['-f', 'null', '-progress', 'pipe:1', '-'],
    ],
    {
      timeoutMs: options.timeoutMs ?? ANALYSIS_TIMEOUT_MS,
      signal: options.signal,
      onStderrLine(line) {
        const start = /silence_start: (-?[\d.]+)/.exec(line);
        if (start) silences.push({ start: Math.max(0, Number(start[1])), end: null });
        const end = /silence_end: (-?[\d.]+)/.exec(line);
        if (end && silences.length) silences.at(-1)!.end = Number(end[1]);
        if (/\] Summary:$/.test(line)) inSummary = true;
        if (!inSummary) return;
        const integrated = /^\s+I:\s+(-?[\d.]+) LUFS/.exec(line);
        if (integrated) loudness = Number(integrated[1]);
        const truePeak = /^\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(line);
        if (truePeak) peak = truePeak[1] === '-inf' ? -Infinity : Number(truePeak[1]);
      },
    },
  );
  if (run.code !== 0) throw new Error(`ffmpeg could not decode the file: ${lastLine(run.stderr)}`);
  if (loudness === null || peak === null) throw new Error('ffmpeg measured no audio in the file');
  return {
    durationSeconds: progressSeconds(run.stdout),
    loudnessLufs: loudness,
    truePeakDbtp: peak,
    silences,
  };
}

/** ffmpeg's silence reports are to the sample; a few milliseconds' slack at either end of the file. */
const EDGE_SECONDS = 0.05;

/** Leading silence is one that starts at the file's start; trailing silence one that lasts to its end. */
export function cuePoints(silences: Silence[], durationSeconds: number) {
  const first = silences[0];
  const last = silences.at(-1);
  const cueIn = first && first.start <= EDGE_SECONDS && first.end !== null ? first.end : 0;
  const lastsToEnd = last && (last.end === null || last.end >= durationSeconds - EDGE_SECONDS);
  const cueOut = last && lastsToEnd && last.start > cueIn ? last.start : durationSeconds;
  return { cueInSeconds: round3(cueIn), cueOutSeconds: round3(cueOut) };
}

const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000;
const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? 'no message';
