import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cannotReadWithoutFfmpeg, MEDIA_UPLOAD_FIELD } from '../../../common/library.js';
import { FileDecoder } from '../../radio/file-decoder.js';
import { ffmpegPath, ffprobePath, MissingMediaToolError } from '../../radio/ffmpeg.js';
import { SAMPLE_RATE } from '../../radio/pcm.js';
import { createTestApp } from '../../test/helpers.js';
import { postFile } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

/**
 * A server with mpg123 and lame and no ffmpeg (docs/decisions/031): this file's PATH holds only those two (each
 * test file runs in a process of its own), so the station's lookup finds no ffmpeg, as on a machine without
 * Debian's package. Its audio is made without ffmpeg: a WAV written by hand, an MP3 encoded by lame.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'no-ffmpeg-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'no-ffmpeg-data-'));
const bin = path.join(work, 'bin');
let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

/** Where the system's `name` is, looked up before the PATH is narrowed. */
const systemTool = (name: string) =>
  execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();

/** `seconds` of a 440 Hz tone, 16-bit stereo at 44.1 kHz, as raw samples. */
function tone(seconds: number): Buffer {
  const frames = Math.round(seconds * SAMPLE_RATE);
  const samples = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const value = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE));
    samples.writeInt16LE(value, i * 4);
    samples.writeInt16LE(value, i * 4 + 2);
  }
  return samples;
}

function wav(seconds: number): Buffer {
  const data = tone(seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function mp3(seconds: number): Buffer {
  const raw = path.join(work, 'tone.raw');
  const out = path.join(work, 'tone.mp3');
  writeFileSync(raw, tone(seconds));
  execFileSync('lame', [
    ...['--quiet', '-r', '-s', '44.1', '--bitwidth', '16', '--signed', '--little-endian', '-b', '64'],
    ...[raw, out],
  ]);
  return readFileSync(out);
}

beforeAll(async () => {
  execFileSync('mkdir', ['-p', bin]);
  for (const name of ['mpg123', 'lame']) symlinkSync(systemTool(name), path.join(bin, name));
  process.env.PATH = bin;
  delete process.env.FFMPEG_PATH;
  delete process.env.FFPROBE_PATH;
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'sexton', 'admin')).headers;
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a server without ffmpeg', () => {
  it('finds none, and says which package brings it: no build of its own stands in', () => {
    for (const lookup of [ffmpegPath, ffprobePath]) {
      expect(lookup).toThrow(MissingMediaToolError);
      expect(lookup).toThrow(/Debian or Ubuntu: apt-get install ffmpeg/);
    }
  });

  it('refuses a WAV for the library and as a sermon with a 415 naming the package', async () => {
    const file = { field: MEDIA_UPLOAD_FIELD, filename: 'hymn.wav', type: 'audio/wav', data: wav(2) };
    for (const [url, field] of [
      ['/api/library', MEDIA_UPLOAD_FIELD],
      ['/api/upload-audio', 'audio'],
    ] as const) {
      const res = await postFile(t.app, url, staff, { ...file, field });
      expect(res.statusCode, url).toBe(415);
      expect(res.json()).toEqual({ message: cannotReadWithoutFfmpeg(true) });
    }
  });

  it('still takes an MP3 sermon, checked by mpg123', async () => {
    const data = mp3(3);
    const res = await postFile(t.app, '/api/upload-audio', staff, {
      field: 'audio',
      filename: 'sermon.mp3',
      type: 'audio/mpeg',
      data,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ durationSeconds: 3, mimeType: 'audio/mpeg', size: data.length });
  });

  it('plays an MP3 through mpg123 and skips what only ffmpeg decodes, with a log line, not a crash', async () => {
    const logged: string[] = [];
    const decode = (file: string) =>
      new FileDecoder(
        { path: file, from: 0, to: null, gainDb: 0 },
        { aheadSeconds: 10, log: (message) => logged.push(message) },
      );
    const mp3File = path.join(work, 'played.mp3');
    writeFileSync(mp3File, mp3(3));
    const wavFile = path.join(work, 'hymn.wav');
    writeFileSync(wavFile, wav(1));
    const skipped = decode(wavFile);
    expect(skipped.exhausted).toBe(true);
    expect(logged).toEqual([
      expect.stringMatching(/^audio decoder cannot start \(No ffmpeg .*apt-get install ffmpeg\)/),
    ]);
    const played = decode(mp3File);
    await vi.waitFor(() => expect(played.ended).toBe(true), { timeout: 10_000 });
    played.close();
    expect(played.receivedSeconds).toBeGreaterThan(2.9);
  });
});
