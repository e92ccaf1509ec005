import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import { SAMPLE_RATE } from '../../radio/pcm.js';

const run = promisify(execFile);

/** The voice the tests and the benchmark speak with (espeak-ng's US English, a female variant). */
export const SPEAKING_VOICE = 'en-us+f2';

/**
 * Text spoken by espeak-ng as the station's mix carries it: 44.1 kHz interleaved stereo float. Speech
 * of known words and known timing, for the recogniser's tests and benchmark.
 */
export async function speak(
  text: string,
  voice = SPEAKING_VOICE,
  wordsPerMinute = 140,
): Promise<Float32Array> {
  const { stdout: wav } = await run(
    'espeak-ng',
    ['-v', voice, '-s', String(wordsPerMinute), '--stdout', text],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const bytes = await convert(wav, [
    ...['-t', 'wav', '-', '-t', 'raw', '-r', String(SAMPLE_RATE), '-c', '2'],
    ...['-e', 'floating-point', '-b', '32', '-'],
  ]);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Text spoken by espeak-ng as an MP3 (what a presenter's encoder sends), `lead` seconds of silence first. */
export async function spokenMp3(text: string, lead = 0.5, voice = SPEAKING_VOICE): Promise<Buffer> {
  const { stdout: wav } = await run('espeak-ng', ['-v', voice, '-s', '140', '--stdout', text], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Math.round(lead * 1000);
  // Written to a file, not a pipe: ffmpeg then heads it with its length (an Info frame), as uploads have.
  const dir = await mkdtemp(join(tmpdir(), 'spoken-'));
  const file = join(dir, 'speech.mp3');
  try {
    await convert(
      wav,
      [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', '-'],
        ...['-af', `adelay=${ms}|${ms},apad=pad_dur=1`, '-ar', String(SAMPLE_RATE), '-ac', '2'],
        ...['-b:a', '128k', '-f', 'mp3', '-y', file],
      ],
      ffmpegPath(),
    );
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** sox (or another converter) reading `input` on stdin. */
function convert(input: Buffer, args: string[], command = 'sox'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sox = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    sox.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    sox.on('error', reject);
    sox.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${command} exited ${code}`)),
    );
    sox.stdin.end(input);
  });
}

/** Stereo silence of `seconds`. */
export const silence = (seconds: number) => new Float32Array(Math.round(seconds * SAMPLE_RATE) * 2);

/** One stereo stream from parts. */
export function joined(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Seconds of a stereo stream. */
export const secondsOf = (pcm: Float32Array) => pcm.length / 2 / SAMPLE_RATE;
