// Owns: one encoder run's processes: the LAME (or ffmpeg) command lines, spawning them, reading their errors.
// Must not: queue frames, judge a hang or restart a run (MultiEncoder, encoder.ts, does).
import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultHighWaterMark, setDefaultHighWaterMark, type Readable, type Writable } from 'node:stream';
import { ffmpegPath, optionalTool } from './ffmpeg.js';
import { FrameParser } from './mp3-frames.js';
import { PCM_ARGS, SAMPLE_RATE } from './pcm.js';

/**
 * LAME's quality (0 best, 9 fastest): its library default, which ffmpeg keeps when none is given. 2 costs about
 * half as much CPU again for a difference nobody hears at these bitrates (bench/pipeline compares Liquidsoap at
 * the same setting).
 */
export const LAME_QUALITY = 3;

/**
 * The LAME command line, where the system has it (Debian's `lame`): one process per bitrate, about 3 MB each,
 * where the one ffmpeg encoding them all holds 30 to 45 MB (decision 027). `LAME_PATH` names one; set empty,
 * ffmpeg encodes.
 */
export const lamePath = optionalTool('lame', 'LAME_PATH', 'LAME');

/** What `lame` is told: the internal format as 16-bit PCM in, CBR MP3 out at 44.1 kHz whatever the bitrate. */
export const lameArgs = (kbps: number) => [
  ...['--quiet', '-r', '-s', String(SAMPLE_RATE / 1000), '--bitwidth', '16', '--signed', '--little-endian'],
  ...['-m', 'j', '--cbr', '-b', String(kbps), '--resample', String(SAMPLE_RATE / 1000)],
  ...['-q', String(LAME_QUALITY)],
  // No Xing frame, no ReplayGain analysis, each frame written as it is made.
  ...['-t', '--noreplaygain', '--flush', '-', '-'],
];

/** The processes encoding now, and what they have answered. */
export interface Run {
  procs: ChildProcess[];
  /** Where the run's audio goes: ffmpeg's input, or every LAME's. */
  inputs: Writable[];
  /** Each bitrate's output pipe, frame parser, latest frame (time) and the slot of its next frame. */
  outputs: { pipe: Readable; parser: FrameParser; lastFrame: number; next: number }[];
  /** The slot of its first audio, its first frame: null until it is fed. */
  from: number | null;
  startedAt: number;
  /** The first write not answered by every bitrate yet. */
  unanswered: number | null;
  /** Found not answering: judged again once Node has read its pipes, then replaced. */
  stuck: boolean;
}

/** What a run encodes: its bitrates, in order, and its ceiling; `lame` the LAME found (null: ffmpeg encodes). */
export interface RunOptions {
  lame: string | null;
  bitrates: readonly number[];
  /** The master limiter's ceiling, linear (ffmpeg's limiter; in front of LAME the limiter is in Node). */
  limit: number;
}

/**
 * Starts the processes of one run: one LAME per bitrate where the system has it, else one ffmpeg for every
 * bitrate. `on.error` and `on.close` report a process that failed or ended (`answered`: every output had
 * sent a frame before).
 */
export function spawnRun(
  options: RunOptions,
  on: {
    error(run: Run, reason: string): void;
    close(run: Run, reason: string, answered: boolean): void;
  },
): Run {
  // The encoders write each frame of each bitrate on its own, about 150 writes a second. Read as they land,
  // each woke Node for one frame; instead each pipe is read once a tick (`check`). A pipe's stream stops
  // reading from the kernel once it holds its high-water mark, so with a mark of one byte it holds one read
  // until `check` drains it and asks for the next (the mark is taken when the streams are made, inside `spawn`).
  const mark = getDefaultHighWaterMark(false);
  setDefaultHighWaterMark(false, 1);
  let procs: ChildProcess[];
  let pipes: Readable[];
  try {
    const lame = options.lame;
    if (lame) {
      procs = options.bitrates.map((kbps) =>
        spawn(lame, lameArgs(kbps), { stdio: ['pipe', 'pipe', 'pipe'] }),
      );
      pipes = procs.map((proc) => proc.stdout!);
    } else {
      const proc = spawnFfmpeg(options);
      procs = [proc];
      pipes = options.bitrates.map((_, i) => proc.stdio[3 + i] as Readable);
    }
  } finally {
    setDefaultHighWaterMark(false, mark);
  }
  const run: Run = {
    procs,
    inputs: procs.map((proc) => proc.stdin!),
    outputs: pipes.map((pipe) => ({
      pipe,
      parser: new FrameParser({ trusted: true }),
      lastFrame: 0,
      next: 0,
    })),
    from: null,
    startedAt: performance.now(),
    unanswered: null,
    stuck: false,
  };
  for (const proc of procs) {
    let errors = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      if (errors.length < 2000) errors += chunk.toString();
    });
    proc.stdin!.on('error', () => {});
    proc.on('error', (error) => on.error(run, error.message));
    proc.on('close', (code, signal) => {
      const answered = run.outputs.every((output) => output.lastFrame > 0);
      on.close(run, signal ? `killed by ${signal}` : lastError(errors) || `exit ${code}`, answered);
    });
  }
  return run;
}

function spawnFfmpeg(options: RunOptions): ChildProcess {
  const outputs = options.bitrates.flatMap((kbps, i) => [
    ...['-map', `[o${i}]`, '-c:a', 'libmp3lame', '-b:a', `${kbps}k`],
    ...['-compression_level', String(LAME_QUALITY)],
    ...['-write_xing', '0', '-id3v2_version', '0', '-flush_packets', '1', '-f', 'mp3', `pipe:${3 + i}`],
  ]);
  const split = options.bitrates.map((_, i) => `[o${i}]`).join('');
  return spawn(
    ffmpegPath(),
    [
      // Its format is given: without probing, the first frames come after a few frames of audio, not
      // after more than a second of it (so a restarted encoder is back within the gap the engine covers).
      ...['-hide_banner', '-nostdin', '-v', 'error', '-probesize', '32', '-analyzeduration', '0'],
      ...[...PCM_ARGS, '-i', 'pipe:0'],
      ...[
        '-filter_complex',
        `[0:a]alimiter=limit=${options.limit.toFixed(4)}:level=0,asplit=${options.bitrates.length}${split}`,
      ],
      ...outputs,
    ],
    { stdio: ['pipe', 'ignore', 'pipe', ...options.bitrates.map(() => 'pipe' as const)] },
  );
}

/** The last line a process wrote to stderr, leaving out the LAME front end's warning about raw input. */
const lastError = (errors: string) =>
  errors
    .trim()
    .split('\n')
    .filter((line) => line && !/libsndfile/.test(line))
    .pop();
