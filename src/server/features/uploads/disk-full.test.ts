import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_FULL } from '../../../common/http.js';
import { createTestApp } from '../../test/helpers.js';
import { postFile } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

// A real full disk: DATA_DIR on a 1 MB tmpfs, which only root may mount.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-full-disk-'));
const mounted =
  process.getuid?.() === 0 &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dataDir]).status === 0;
if (!mounted) console.warn('Full-disk upload test skipped: a 1 MB tmpfs cannot be mounted (needs root)');

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  if (!mounted) return;
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'warden', 'admin')).headers;
});
afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', [dataDir]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!mounted)('uploads on a full disk', () => {
  const upload = (url: string, field: string, filename: string, type: string, data: Buffer) =>
    postFile(t.app, url, staff, { field, filename, type, data });

  it.each([
    ['/api/upload-audio', 'audio', 'sermon.mp3', 'audio/mpeg'],
    ['/api/upload-image', 'image', 'photo.jpg', 'image/jpeg'],
  ])(
    '%s answers 507 saying the change was not saved, keeps nothing, and /readyz says the disk is full',
    async (url, field, name, type) => {
      // Larger than the whole disk: the write fails with ENOSPC part-way.
      const res = await upload(url, field, name, type, Buffer.alloc(1536 * 1024, 0xaa));
      expect(res.json()).toEqual({ message: DISK_FULL });
      expect(res.statusCode).toBe(507);
      expect(readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ ready: false, reason: expect.stringMatching(/^disk: full/) });
    },
  );

  it('a picture that fits but whose pixels do not (written out before its JPEG is encoded) answers 507 too', async () => {
    // About 25 KB uploaded; its 1,600 x 1,600 pixels take 7.7 MB on the way to the encoder.
    const picture = await sharp({
      create: { width: 1600, height: 1600, channels: 3, background: '#1e3a8a' },
    })
      .jpeg()
      .toBuffer();
    expect(picture.length).toBeLessThan(100_000);
    const res = await upload('/api/upload-image', 'image', 'photo.jpg', 'image/jpeg', picture);
    expect(res.json()).toEqual({ message: DISK_FULL });
    expect(res.statusCode).toBe(507);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
  });
});
