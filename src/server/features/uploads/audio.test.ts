import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIO_TOO_LARGE,
  incompleteAudioFile,
  INVALID_AUDIO_FILE,
} from '../../../common/featured-content.js';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'audio-upload-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'audio-upload-data-'));
const kept = () => readdirSync(path.join(dataDir, 'uploads'));

/** Real audio from ffmpeg: `seconds` of a tone in the given codec. */
const encoded = (name: string, codec: string[], seconds = 7) => {
  const file = path.join(work, name);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=duration=${seconds}`],
    ...codec,
    file,
  ]);
  return readFileSync(file);
};

/** An MP3 whose Xing/Info header says it holds `claimed` seconds (it counts frames of 576 samples at 22,050 Hz). */
const mp3Claiming = (claimed: number, seconds: number) => {
  const bytes = Buffer.from(encoded('lying.mp3', ['-b:a', '32k', '-ar', '22050'], seconds));
  const info = bytes.indexOf('Info');
  bytes.writeUInt32BE(Math.round((claimed * 22050) / 576), info + 8);
  return bytes;
};

/** An M4A whose movie and track headers say it lasts `claimed` seconds. */
const m4aClaiming = (claimed: number, seconds: number) => {
  const bytes = Buffer.from(encoded('lying.m4a', ['-c:a', 'aac', '-movflags', '+faststart'], seconds));
  for (const box of ['mvhd', 'mdhd']) {
    const at = bytes.indexOf(box);
    const timescale = bytes.readUInt32BE(at + 16);
    bytes.writeUInt32BE(timescale * claimed, at + 20);
  }
  return bytes;
};

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'sexton', 'admin')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (data: Buffer, filename: string, headers = staff, field = 'audio') => {
  const body = multipartBody(field, filename, 'audio/mpeg', data);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload-audio',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
};

describe('POST /api/upload-audio', () => {
  it.each([
    ['an MP3', 'sermon.mp3', ['-b:a', '64k'], 'audio/mpeg', /\.mp3$/],
    ['an M4A', 'sermon.m4a', ['-c:a', 'aac'], 'audio/mp4', /\.m4a$/],
  ])(
    'stores %s with its duration read from the file, served with ranges so a phone can seek',
    async (_c, name, codec, type, ext) => {
      const bytes = encoded(name, codec);
      const res = await upload(bytes, 'whatever-name.bin');
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ durationSeconds: 7, mimeType: type, size: bytes.length });
      expect(body.audioUrl).toMatch(ext);
      const whole = await t.app.inject({ url: body.audioUrl });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toContain(type);
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const part = await t.app.inject({ url: body.audioUrl, headers: { range: 'bytes=100-199' } });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    },
  );

  it.each([
    ['a text file named .mp3', () => Buffer.from('Not a sermon at all\n'.repeat(50)), 'notes.mp3'],
    ['random bytes', () => Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256)), 'x.mp3'],
    ['a WAV file', () => encoded('t.wav', []), 'sermon.wav'],
    ['an empty file', () => Buffer.alloc(0), 'empty.mp3'],
    // Only its header looks like MP3: ffprobe, reading the bytes alone, finds no MP3 in it.
    [
      'an MP3 whose audio after the header is zeros',
      () => encoded('z.mp3', ['-b:a', '64k']).fill(0, 1200),
      'z.mp3',
    ],
  ])('refuses %s with a clear 400 and keeps nothing', async (_c, data, name) => {
    const res = await upload(data(), name);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(INVALID_AUDIO_FILE);
  });

  it.each([
    ['an MP3 whose header claims 30 s over 0.3 s of audio', () => mp3Claiming(30, 0.3), 30, 0],
    ['an M4A whose header claims 30 s over 1 s of audio', () => m4aClaiming(30, 1), 30, 1],
    [
      'a 7-second MP3 cut after its first second',
      () => {
        const whole = encoded('cut.mp3', ['-b:a', '64k']);
        return whole.subarray(0, Math.round(whole.length / 7));
      },
      7,
      1,
    ],
  ])('decodes %s, refuses it with a clear 400 and keeps nothing', async (_c, data, claimed, decoded) => {
    const before = kept();
    const res = await upload(data(), 'sermon.mp3');
    expect(res.json()).toEqual({ message: incompleteAudioFile(claimed, decoded) });
    expect(res.statusCode).toBe(400);
    expect(kept()).toEqual(before);
  });

  it('refuses a file in another field, and a request that is not multipart', async () => {
    expect((await upload(encoded('f.mp3', []), 'f.mp3', staff, 'image')).statusCode).toBe(400);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/upload-audio',
      headers: staff,
      payload: { a: 1 },
    });
    expect(plain.statusCode).toBe(400);
  });

  it.each([
    ['a body that is not multipart at all', '[]'],
    [
      'a form cut off inside a file',
      '--x\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\n\r\nID3',
    ],
    ['a part without headers', '--x\r\n\r\n\r\n--x--'],
  ])('refuses %s with a 400, not a 500', async (_c, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-audio',
      headers: { ...staff, 'content-type': 'multipart/form-data; boundary=x' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(INVALID_AUDIO_FILE);
  });

  it('refuses a file over 200 MB with a 413', async () => {
    const res = await upload(Buffer.alloc(200 * 1024 * 1024 + 1), 'long.mp3');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(AUDIO_TOO_LARGE);
  }, 60_000);

  it('is for staff only', async () => {
    expect((await upload(encoded('g.mp3', []), 'g.mp3', {})).statusCode).toBe(401);
  });
});
