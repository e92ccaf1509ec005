import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pictureTooLarge } from '../../../common/featured-content.js';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'picture-size-'));
const kept = () => readdirSync(path.join(dataDir, 'uploads')).filter((name) => !name.startsWith('.'));

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'usher', 'admin')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (data: Buffer) => {
  const body = multipartBody('image', 'picture', 'application/octet-stream', data);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload-image',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
};

/** A plain picture (it compresses to almost nothing, however many pixels it has). */
const plain = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 30, g: 60, b: 120, alpha: 0.5 } } });

/** An animation of `frames` plain frames. */
const animation = async (side: number, frames: number) =>
  sharp(
    await Promise.all(
      Array.from({ length: frames }, (_, i) =>
        sharp({ create: { width: side, height: side, channels: 3, background: { r: i * 40, g: 0, b: 0 } } })
          .png()
          .toBuffer(),
      ),
    ),
    { join: { animated: true } },
  )
    .gif()
    .toBuffer();

describe('POST /api/upload-image bounds what a picture costs to decode', () => {
  it.each([
    // Decoded in strips: up to 40 million pixels of 8-bit colour.
    ['a JPEG over 40 million pixels', () => plain(6400, 6400).jpeg().toBuffer(), 'JPEG', 40_000_000],
    ['a PNG over 40 million pixels', () => plain(6400, 6400).png().toBuffer(), 'PNG', 40_000_000],
    [
      'a 16-bit PNG with transparency (8 bytes a pixel)',
      () => plain(4000, 4000, 4).toColourspace('rgb16').png().toBuffer(),
      'PNG',
      15_000_000,
    ],
    // Decoded whole: 20 MB of pixels.
    [
      'a progressive JPEG',
      () => plain(3000, 2500).jpeg({ progressive: true }).toBuffer(),
      'progressive JPEG',
      6_666_666,
    ],
    [
      'an interlaced PNG',
      () => plain(3000, 2500).png({ progressive: true }).toBuffer(),
      'interlaced PNG',
      6_666_666,
    ],
    ['a GIF (decoded to RGBA)', () => plain(2300, 2300).gif().toBuffer(), 'GIF', 5_000_000],
    ['a WebP', () => plain(3000, 2500).webp().toBuffer(), 'WebP', 6_666_666],
  ])(
    'refuses %s with a 400 naming its size and the limit, and keeps nothing',
    async (_c, make, kind, max) => {
      const data = await make();
      const meta = await sharp(data).metadata();
      const res = await upload(data);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: pictureTooLarge({
          kind,
          width: meta.width!,
          height: meta.height!,
          frames: 1,
          maxPixels: max,
        }),
      });
      expect(res.json().message).toMatch(
        /^This .* picture is \d+ x \d+ pixels; the station takes a .* million pixels/,
      );
      expect(kept()).toEqual([]);
    },
    60_000,
  );

  it('counts every frame of an animation', async () => {
    const res = await upload(await animation(1000, 6));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'This GIF picture is 1000 x 1000 pixels in 6 frames (6 million pixels in all); the station takes a GIF ' +
        'picture of up to 5 million pixels. Please make it smaller and upload it again.',
    );
    expect(kept()).toEqual([]);
  }, 60_000);

  it.each([
    ['a JPEG of 39 million pixels', () => plain(6245, 6245).jpeg().toBuffer()],
    [
      'a progressive JPEG of 6.6 million pixels',
      () => plain(2580, 2580).jpeg({ progressive: true }).toBuffer(),
    ],
    ['a GIF of 5 million pixels', () => plain(2236, 2236).gif().toBuffer()],
    ['an animation of 4 million pixels in all', () => animation(1000, 4)],
  ])(
    'accepts %s, within its limit',
    async (_c, make) => {
      const res = await upload(await make());
      expect(res.statusCode).toBe(201);
    },
    60_000,
  );
});
