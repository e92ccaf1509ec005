import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { incompleteAudioFile } from '../../../common/featured-content.js';
import {
  INVALID_MEDIA_FILE,
  mediaTooLarge,
  NO_AUDIO_STREAM,
  TRUNCATED_MEDIA_FILE,
  type MediaItem,
} from '../../../common/library.js';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import { createTestApp } from '../../test/helpers.js';
import { listLibrary, settledLibrary, toneFile, uploadMedia, whenMeasured } from '../../test/library.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';
import { audioQueue } from '../uploads/service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let superuser: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'library-work-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'library-data-'));
const mediaDir = path.join(dataDir, 'media');
const uploadsDir = path.join(dataDir, 'uploads');
const onDisk = () => ({ media: readdirSync(mediaDir).sort(), uploads: readdirSync(uploadsDir).sort() });

beforeAll(async () => {
  // 1 MB: the size limit is tested without sending half a gigabyte.
  t = await createTestApp({ DATA_DIR: dataDir, MAX_UPLOAD_MB: '1' });
  admin = (await addStaff(t.db, 'librarian', 'admin')).headers;
  superuser = (await addStaff(t.db, 'archivist', 'superuser')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const ffmpeg = (...args: string[]) => execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args]);

describe('POST /api/library', () => {
  it.each([
    // name, tone, expected format, sample rate, channels, loudness (a stereo sine peaking at P dBFS is P LUFS)
    ['Grace Choir - Amazing Grace.wav', { peakDbfs: -20 }, 'wav', 44100, 2, -20],
    [
      'phone recording.m4a',
      { peakDbfs: -16, sampleRate: 48000, codec: ['-c:a', 'aac'] },
      'm4a',
      48000,
      2,
      -16,
    ],
    ['psalm.flac', { peakDbfs: -14, channels: 1, sampleRate: 22050 } as const, 'flac', 22050, 1, -17],
    ['hymn 48k.mp3', { peakDbfs: -18, sampleRate: 48000 }, 'mp3', 48000, 2, -18],
    ['vespers.ogg', { peakDbfs: -20, codec: ['-c:a', 'libvorbis'] }, 'ogg', 44100, 2, -20],
    ['homily.opus', { peakDbfs: -20, channels: 1, sampleRate: 48000 } as const, 'opus', 48000, 1, -23],
    ['jingle.aac', { peakDbfs: -20, codec: ['-c:a', 'aac', '-f', 'adts'] }, 'aac', 44100, 2, -20],
  ] as const)(
    'takes %s, names it from its file name, keeps it in the media folder and measures it',
    async (name, tone, format, sampleRate, channels, lufs) => {
      const data = await toneFile(work, name, { seconds: 3, leadSilence: 0.5, tailSilence: 1, ...tone });
      const res = await uploadMedia(t.app, admin, data, name);
      expect(res.statusCode, res.body).toBe(201);
      const item = res.json<MediaItem>();
      expect(item).toMatchObject({
        status: 'analysing',
        kind: 'music',
        original_name: name,
        format,
        sample_rate: sampleRate,
        channels,
        size_bytes: data.length,
        subtitle_languages: [],
        draft: false,
      });
      const stem = path.parse(name).name;
      if (stem.includes(' - ')) expect(item).toMatchObject({ artist: 'Grace Choir', title: 'Amazing Grace' });
      else expect(item).toMatchObject({ artist: '', title: stem });
      expect(readFileSync(path.join(mediaDir, `${item.id}.${format}`)).equals(data)).toBe(true);

      const measured = await whenMeasured(t.app, admin, item.id);
      expect(measured.status, measured.error ?? '').toBe('ready');
      // Within 1 LU: the meter's 400 ms blocks straddling the silence at either end, and lossy codecs, move it a
      // little (radio/analysis.test.ts checks the meter itself within 0.5 LU).
      expect(Math.abs(measured.loudness_lufs! - lufs)).toBeLessThan(1);
      expect(measured.true_peak_dbtp!).toBeLessThan(tone.peakDbfs + 0.6);
      expect(measured.duration_seconds!).toBeGreaterThan(4.4);
      expect(measured.duration_seconds!).toBeLessThan(4.7);
      expect(Math.abs(measured.cue_in_seconds! - 0.5)).toBeLessThan(0.1);
      expect(Math.abs(measured.cue_out_seconds! - 3.5)).toBeLessThan(0.1);
    },
    30_000,
  );

  it('reads title, artist and album from the tags, and the embedded cover becomes the artwork', async () => {
    const cover = path.join(work, 'cover.png');
    await sharp({ create: { width: 300, height: 300, channels: 3, background: '#1e3a8a' } })
      .png()
      .toFile(cover);
    const data = await toneFile(work, 'tagged.mp3', {
      inputs: ['-i', cover],
      codec: ['-map', '0:a', '-map', '1:v', '-c:v', 'png', '-id3v2_version', '3'],
      extra: [
        ...['-metadata', 'title=How Great Thou Art', '-metadata', 'artist=St. Mary Choir'],
        ...['-metadata', 'album=Hymns of Praise', '-metadata:s:v', 'comment=Cover (front)'],
      ],
    });
    const res = await uploadMedia(t.app, superuser, data, 'track01.mp3');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'How Great Thou Art',
      artist: 'St. Mary Choir',
      album: 'Hymns of Praise',
    });
    const measured = await whenMeasured(t.app, admin, res.json().id);
    expect(measured.artwork_url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const picture = await t.app.inject({ url: measured.artwork_url! });
    expect(picture.statusCode).toBe(200);
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ format: 'png', width: 300 });
  });

  it('marks a file with no sound failed, with the reason, and never plays it', async () => {
    const data = await toneFile(work, 'silence.wav', { peakDbfs: -200 });
    const res = await uploadMedia(t.app, admin, data, 'silence.wav');
    expect(res.statusCode).toBe(201);
    const measured = await whenMeasured(t.app, admin, res.json().id);
    expect(measured).toMatchObject({ status: 'failed', error: 'No sound found: the file is silent.' });
  });

  const cut = (data: Buffer, fraction: number) => data.subarray(0, Math.round(data.length * fraction));
  const badFiles: [string, () => Promise<Buffer>, number, string | RegExp][] = [
    [
      'a text file named .mp3',
      async () => Buffer.from('Sunday notes\n'.repeat(200)),
      400,
      INVALID_MEDIA_FILE,
    ],
    [
      'random bytes named .wav',
      async () => Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7919) % 256)),
      400,
      INVALID_MEDIA_FILE,
    ],
    ['an empty file', async () => Buffer.alloc(0), 400, INVALID_MEDIA_FILE],
    [
      'a picture named .mp3',
      () =>
        sharp({ create: { width: 32, height: 32, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      400,
      INVALID_MEDIA_FILE,
    ],
    [
      'a playlist pointing elsewhere',
      async () => Buffer.from('#EXTM3U\n#EXTINF:10,\nhttp://169.254.169.254/latest/meta-data\n'),
      400,
      INVALID_MEDIA_FILE,
    ],
    [
      'a video with no audio stream',
      async () => {
        const file = path.join(work, 'silent-film.mp4');
        ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=1:size=32x32:rate=5', '-c:v', 'mpeg4', file);
        return readFileSync(file);
      },
      400,
      NO_AUDIO_STREAM,
    ],
    ['a WAV cut off midway', async () => cut(await toneFile(work, 'c.wav'), 0.6), 400, TRUNCATED_MEDIA_FILE],
    [
      'an Opus file cut off midway',
      async () => cut(await toneFile(work, 'c.opus', { seconds: 6 }), 0.5),
      400,
      TRUNCATED_MEDIA_FILE,
    ],
    [
      'an Ogg Vorbis file cut off midway',
      async () => cut(await toneFile(work, 'c.ogg', { seconds: 6, codec: ['-c:a', 'libvorbis'] }), 0.5),
      400,
      TRUNCATED_MEDIA_FILE,
    ],
    [
      'a FLAC cut off after a third',
      async () => cut(await toneFile(work, 'c.flac', { seconds: 9 }), 1 / 3),
      400,
      /^This audio file is incomplete: it plays [0-9] of the 9 seconds it claims/,
    ],
    [
      'an MP3 cut off after a third',
      async () => cut(await toneFile(work, 'c.mp3', { seconds: 9 }), 1 / 3),
      400,
      /^This audio file is incomplete: it plays [0-9] of the 9 seconds it claims/,
    ],
    [
      'an M4A whose header claims 30 s over 1 s of audio',
      async () => {
        const bytes = await toneFile(work, 'l.m4a', {
          seconds: 1,
          codec: ['-c:a', 'aac', '-movflags', '+faststart'],
        });
        for (const box of ['mvhd', 'mdhd']) {
          const at = bytes.indexOf(box);
          bytes.writeUInt32BE(bytes.readUInt32BE(at + 16) * 30, at + 20);
        }
        return bytes;
      },
      400,
      incompleteAudioFile(30, 1),
    ],
    [
      'an M4A cut off before its index',
      async () => cut(await toneFile(work, 'c.m4a', { codec: ['-c:a', 'aac'] }), 0.5),
      400,
      INVALID_MEDIA_FILE,
    ],
    ['a file over MAX_UPLOAD_MB', async () => Buffer.alloc(1024 * 1024 + 1, 0x55), 413, mediaTooLarge(1)],
  ];

  it.each(badFiles)(
    'refuses %s with a clear message and keeps nothing',
    async (_c, make, status, message) => {
      const items = await settledLibrary(t.app, admin);
      const before = { disk: onDisk(), items };
      const res = await uploadMedia(t.app, admin, await make(), 'sermon.mp3');
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(onDisk()).toEqual(before.disk);
      expect(await listLibrary(t.app, admin)).toEqual(before.items);
    },
  );

  it.each([
    ['a file in another field', () => multipartBody('audio', 'a.wav', 'audio/wav', Buffer.from('RIFF'))],
    [
      'JSON',
      () => ({ payload: JSON.stringify({ file: 'a.mp3' }), headers: { 'content-type': 'application/json' } }),
    ],
    [
      'a form cut off inside the file',
      () => ({
        payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n\r\nID3',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    ],
    [
      'a text field over 1 KB',
      () => ({
        payload: `--x\r\nContent-Disposition: form-data; name="note"\r\n\r\n${'x'.repeat(2000)}\r\n--x--\r\n`,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    ],
  ])('refuses %s with a 400 and keeps nothing', async (_c, body) => {
    await settledLibrary(t.app, admin);
    const before = onDisk();
    const { payload, headers } = body();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/library',
      headers: { ...admin, ...headers },
      payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect(onDisk()).toEqual(before);
  });

  it('leaves nothing behind when the upload is cut off midway', async () => {
    const items = await settledLibrary(t.app, admin);
    const before = { disk: onDisk(), items };
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const body = multipartBody(
      'file',
      'long.wav',
      'audio/wav',
      await toneFile(work, 'long.wav', { seconds: 5 }),
    );
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const head = Object.entries({ ...admin, ...body.headers, 'content-length': body.payload.length })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`POST /api/library HTTP/1.1\r\nhost: localhost\r\n${head}\r\n\r\n`);
    socket.write(body.payload.subarray(0, body.payload.length / 2));
    // Being received: a dot-name in the media folder.
    await vi.waitFor(() =>
      expect(readdirSync(mediaDir).some((name) => name.startsWith('.incoming-'))).toBe(true),
    );
    socket.destroy();
    await vi.waitFor(() => {
      expect(audioQueue.admitted).toBe(0);
      expect(onDisk()).toEqual(before.disk);
    });
    expect(await listLibrary(t.app, admin)).toEqual(before.items);
  });
});
