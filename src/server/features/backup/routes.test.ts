import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsers, emailSubscribers, featuredContent } from '../../db/schema.js';
import { createTestApp, createTestDatabase } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { restoreBackup, RestoreError } from './service.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'station-backup-test-'));
  dirs.push(dir);
  return dir;
};

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Record<string, string>;
let admin: Record<string, string>;
let imageUrl: string;

/** Files the station plays or serves from DATA_DIR besides uploads: bytes no text encoding would keep. */
const LIBRARY = {
  'media/Morning Praise - Choir.mp3': randomBytes(64 * 1024),
  'media/Morning Praise - Choir.en.vtt': Buffer.from('WEBVTT\n\n00:00.000 --> 00:04.000\nGood morning\n'),
  'media/Morning Praise - Choir.fr.vtt': Buffer.from('WEBVTT\n\n00:00.000 --> 00:04.000\nBonjour, ça va\n'),
  'media/hymns/Amazing Grace.mp3': randomBytes(16 * 1024),
  'clips/clip-1.mp3': randomBytes(8 * 1024),
};

function imageUpload(data: Buffer) {
  const boundary = `----station${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload-image',
    headers: { ...superuser, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: tempDir() });
  superuser = (await addStaff(t.db, 'keeper', 'superuser')).headers;
  admin = (await addStaff(t.db, 'helper', 'admin')).headers;
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();
  imageUrl = (await imageUpload(png)).json<{ imageUrl: string }>().imageUrl;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/featured-content',
    headers: superuser,
    payload: { title: 'Psalm 121', description: 'I lift up my eyes', type: 'devotion', imageUrl },
  });
  expect(created.statusCode).toBe(201);
  // The library the AutoDJ plays, with its subtitles, and a listener's shared clip.
  mkdirSync(path.join(t.config.dataDir, 'media', 'hymns'), { recursive: true });
  mkdirSync(path.join(t.config.dataDir, 'clips'), { recursive: true });
  for (const [file, data] of Object.entries(LIBRARY)) writeFileSync(path.join(t.config.dataDir, file), data);
  await t.db.insert(emailSubscribers).values([
    { email: 'ruth@example.org', name: 'Ruth' },
    { email: 'boaz@example.org', name: 'Boaz', isActive: 'false', status: 'unsubscribed' },
  ]);
});
afterAll(async () => {
  await t.close();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function download(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/admin/backup', headers });
}

const everything = async (db: typeof t.db) => ({
  users: (await db.select().from(adminUsers)).sort((a, b) => a.id.localeCompare(b.id)),
  featured: await db.select().from(featuredContent),
  subscribers: (await db.select().from(emailSubscribers)).sort((a, b) => a.email.localeCompare(b.email)),
});

describe('GET /api/admin/backup', () => {
  it.each([
    ['no token', {}, 401],
    ['a bad token', { authorization: 'Bearer not-a-session' }, 401],
  ])('refuses %s with 401', async (_name, headers, status) => {
    const res = await download(headers);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toHaveProperty('message');
  });

  it('refuses staff who are not superusers with 403', async () => {
    const res = await download(admin);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toHaveProperty('message');
  });

  it('gives a superuser an archive that restores content, uploads, the media library, clips and subscribers into a fresh station', async () => {
    const res = await download(superuser);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="station-backup-\d{4}-\d{2}-\d{2}\.tar\.gz"$/,
    );
    const file = path.join(tempDir(), 'backup.tar.gz');
    writeFileSync(file, res.rawPayload);

    const freshDir = tempDir();
    const fresh = await createTestDatabase();
    try {
      await restoreBackup(fresh.db, freshDir, file, { force: false });
      expect(await everything(fresh.db)).toEqual(await everything(t.db));
      const stored = path.join(freshDir, imageUrl);
      expect(readFileSync(stored)).toEqual(readFileSync(path.join(t.config.dataDir, imageUrl)));
      // The library and its subtitles come back byte for byte: the restored station plays the same.
      for (const [file, data] of Object.entries(LIBRARY)) {
        expect(readFileSync(path.join(freshDir, file)).equals(data), file).toBe(true);
      }

      // The restored station holds data now: a second restore needs force, and then replaces it all.
      await expect(restoreBackup(fresh.db, freshDir, file, { force: false })).rejects.toThrow(
        /already holds data: restore with --force/,
      );
      await fresh.db.insert(emailSubscribers).values({ email: 'extra@example.org' });
      writeFileSync(path.join(freshDir, 'media', 'added since.mp3'), 'x');
      await restoreBackup(fresh.db, freshDir, file, { force: true });
      expect(await everything(fresh.db)).toEqual(await everything(t.db));
      // What was there is kept beside, as uploads are; the library is the backup's again.
      expect(existsSync(path.join(freshDir, 'media', 'added since.mp3'))).toBe(false);
      const kept = readdirSync(freshDir).filter((name) => name.startsWith('media.before-restore-'));
      expect(kept).toHaveLength(1);
      expect(readdirSync(path.join(freshDir, kept[0]!))).toContain('added since.mp3');
      for (const [file, data] of Object.entries(LIBRARY)) {
        expect(readFileSync(path.join(freshDir, file)).equals(data), file).toBe(true);
      }
    } finally {
      await fresh.close();
    }
  });

  it('refuses a file that is not a station backup and changes nothing', async () => {
    const file = path.join(tempDir(), 'notes.tar.gz');
    writeFileSync(file, 'just some notes');
    const before = await everything(t.db);
    await expect(restoreBackup(t.db, t.config.dataDir, file, { force: true })).rejects.toBeInstanceOf(
      RestoreError,
    );
    expect(await everything(t.db)).toEqual(before);
  });
});
