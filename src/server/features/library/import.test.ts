import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { mediaItems } from '../../db/schema.js';
import { createLocalBus } from '../../plugins/event-bus.js';
import { makeMp3, makeTone } from '../../radio/test-audio.js';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { settledLibrary } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';
import { addContent } from '../featured-content/service.js';
import { libraryProvider } from './service.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'library-import-'));
const media = path.join(dataDir, 'media');
const uploads = path.join(dataDir, 'uploads');
const sermonFile = 'a3f1c2d4e5f60718293a4b5c6d7e8f90.mp3';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let staff: Record<string, string>;
const running: FastifyInstance[] = [];

/** The station started on the same database and DATA_DIR, as after a restart. */
async function start(options: { mediaRescanMs?: number } = {}) {
  const bus = createLocalBus();
  const app = await buildApp({ config: testConfig({ DATA_DIR: dataDir }), db: database.db, bus }, options);
  app.addHook('onClose', async () => bus.close());
  await app.ready();
  running.push(app);
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
  staff = (await addStaff(database.db, 'sexton', 'admin')).headers;
  mkdirSync(path.join(media, 'old'), { recursive: true });
  mkdirSync(uploads, { recursive: true });
  const hymn = path.join(media, 'Grace Choir - Amazing Grace.mp3');
  await makeMp3(hymn, { seconds: 2 });
  for (const language of ['en', 'es', 'not-a-language-code'])
    writeFileSync(path.join(media, `Grace Choir - Amazing Grace.${language}.vtt`), 'WEBVTT\n');
  await makeTone(path.join(media, 'psalm_23.flac'), { seconds: 2, sampleRate: 48000 });
  await makeTone(path.join(media, 'evening.ogg'), { seconds: 2, codec: ['-c:a', 'libvorbis'] });
  await makeTone(path.join(media, 'silence.wav'), { seconds: 1, peakDbfs: -200 });
  writeFileSync(path.join(media, 'notes.txt'), 'Play the hymn after the sermon.\n');
  writeFileSync(path.join(media, '.incoming-0123456789abcdef'), 'half an upload');
  copyFileSync(hymn, path.join(media, 'old', 'archived.mp3'));
  // Sermon audio uploaded in the Content tab before the library existed.
  await makeMp3(path.join(uploads, sermonFile), { seconds: 2 });
  await addContent(database.db, {
    title: 'Easter Sunday',
    description: 'He is risen',
    type: 'sermon',
    audioUrl: `/uploads/${sermonFile}`,
  });
});
afterAll(async () => {
  for (const app of running) await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the first start', () => {
  it('adds the audio files already in the media folder and the featured sermons, kept in place, and measures them', async () => {
    const app = await start();
    const items = await settledLibrary(app, staff, 5);
    const byName = Object.fromEntries(items.map((item) => [item.original_name, item]));
    expect(Object.keys(byName).sort()).toEqual(
      ['Grace Choir - Amazing Grace.mp3', 'evening.ogg', 'psalm_23.flac', sermonFile, 'silence.wav'].sort(),
    );
    expect(byName['Grace Choir - Amazing Grace.mp3']).toMatchObject({
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      kind: 'music',
      format: 'mp3',
      status: 'ready',
      subtitle_languages: ['en', 'es'],
    });
    expect(byName['psalm_23.flac']).toMatchObject({ title: 'psalm 23', format: 'flac', sample_rate: 48000 });
    expect(byName['evening.ogg']).toMatchObject({ format: 'ogg', status: 'ready', subtitle_languages: [] });
    expect(byName[sermonFile]).toMatchObject({ title: 'Easter Sunday', kind: 'sermon', status: 'ready' });
    expect(byName['silence.wav']).toMatchObject({ status: 'failed', error: expect.stringMatching(/silent/) });
    // Tones peaking at -20 dBFS in stereo: -20 LUFS.
    for (const name of ['psalm_23.flac', 'evening.ogg'])
      expect(Math.abs(byName[name]!.loudness_lufs! + 20)).toBeLessThan(1);

    // Kept where they were; the half-received upload a crash left is gone; everything else is left alone.
    expect(readdirSync(media).sort()).toEqual(
      [
        'Grace Choir - Amazing Grace.en.vtt',
        'Grace Choir - Amazing Grace.es.vtt',
        'Grace Choir - Amazing Grace.mp3',
        'Grace Choir - Amazing Grace.not-a-language-code.vtt',
        'evening.ogg',
        'notes.txt',
        'old',
        'psalm_23.flac',
        'silence.wav',
      ].sort(),
    );
    expect(existsSync(path.join(uploads, sermonFile))).toBe(true);
  });

  it('hands the AutoDJ every measured item with what it needs to play it', async () => {
    const items = await libraryProvider({ db: database.db, folders: { media, uploads } })();
    expect(items.map((item) => path.basename(item.path)).sort()).toEqual(
      ['Grace Choir - Amazing Grace.mp3', 'evening.ogg', 'psalm_23.flac', sermonFile].sort(),
    );
    const hymn = items.find((item) => item.title === 'Amazing Grace')!;
    expect(hymn).toEqual({
      path: path.join(media, 'Grace Choir - Amazing Grace.mp3'),
      id: expect.any(String),
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      kind: 'music',
      addedAt: expect.any(Number),
      artworkUrl: null,
      loudnessLufs: expect.any(Number),
      truePeakDbtp: expect.any(Number),
      cueIn: expect.any(Number),
      cueOut: expect.any(Number),
      duration: expect.any(Number),
    });
    expect(hymn.duration!).toBeGreaterThan(1.9);
    expect(hymn.cueOut!).toBeGreaterThan(hymn.cueIn!);
  });
});

describe('a restart', () => {
  it('adds nothing twice, and measures again what a stop left unmeasured', async () => {
    const first = running.shift()!;
    const before = await settledLibrary(first, staff, 5);
    await first.close();
    // As if the station stopped in the middle of measuring the hymn.
    const hymn = before.find((item) => item.title === 'Amazing Grace')!;
    await database.db
      .update(mediaItems)
      .set({ status: 'analysing', loudnessLufs: null, cueInSeconds: null })
      .where(eq(mediaItems.id, hymn.id));

    const app = await start();
    const after = await settledLibrary(app, staff);
    expect(after.map((item) => item.id).sort()).toEqual(before.map((item) => item.id).sort());
    expect(after.find((item) => item.id === hymn.id)).toEqual(hymn);
  });
});

describe('while the station runs', () => {
  it('adds a file copied into the media folder once it has stopped changing, and nothing twice', async () => {
    for (const app of running.splice(0)) await app.close();
    const app = await start({ mediaRescanMs: 300 });
    const before = await settledLibrary(app, staff, 5);
    const copied = path.join(media, 'Evening Hymn.flac');
    await makeTone(copied, { seconds: 2 });
    // Just written: it may still be being copied in, so it waits for a later look.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await settledLibrary(app, staff)).map((item) => item.original_name)).not.toContain(
      'Evening Hymn.flac',
    );
    // Still for long enough (as if copied in a while ago): added and measured, once.
    const past = new Date(Date.now() - 60_000);
    utimesSync(copied, past, past);
    const after = await settledLibrary(app, staff, before.length + 1);
    const added = after.filter((item) => item.original_name === 'Evening Hymn.flac');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ kind: 'music', status: 'ready' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await settledLibrary(app, staff)).toHaveLength(before.length + 1);
  });
});
