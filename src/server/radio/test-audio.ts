import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

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
