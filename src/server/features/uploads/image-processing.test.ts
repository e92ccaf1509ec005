import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { imageQueue, NotAnImageError, reencodeImage } from './image-processing.js';
import { bodiesHeld } from './receive.js';

const picture = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#1e3a8a' } })
    .jpeg()
    .toBuffer();

it('re-encodes one picture at a time, in the order they came, with one libvips thread and no cache', async () => {
  const [large, small] = await Promise.all([picture(4000), picture(16)]);
  const finished: string[] = [];
  const inLine = (input: Buffer) => {
    const place = imageQueue.admit()!;
    return place.run(() => reencodeImage(input, os.tmpdir())).finally(place.leave);
  };
  const work = [
    inLine(large).then(() => finished.push('large')),
    inLine(small).then(() => finished.push('small')),
    inLine(Buffer.from('not a picture')).catch(() => finished.push('refused')),
    inLine(small).then(() => finished.push('small again')),
  ];
  expect(imageQueue.admitted).toBe(4);
  // The line holds one running and three waiting: a fifth is not let in.
  expect(imageQueue.admit()).toBeUndefined();
  await Promise.all(work);
  // Run side by side, the small picture would finish long before the large one.
  expect(finished).toEqual(['large', 'small', 'refused', 'small again']);
  expect(imageQueue.admitted).toBe(0);
  expect(sharp.concurrency()).toBe(1);
  expect(sharp.cache()).toMatchObject({ memory: { current: 0 }, items: { current: 0 } });
}, 60_000);

describe('a JPEG encoded from its pixels on disk', () => {
  const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'station-pixels-'));
  // A photo-like picture: a gradient with grain, turned by its EXIF orientation.
  const photo = async () => {
    const side = 2400;
    const pixels = Buffer.alloc(side * 1800 * 3);
    for (let i = 0; i < pixels.length; i++)
      pixels[i] = ((Math.floor(i / 3) % side) + (Math.imul(i, 2654435761) >>> 27)) % 256;
    return sharp(pixels, { raw: { width: side, height: 1800, channels: 3 } })
      .jpeg({ quality: 70 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
  };

  it('gives the same bytes as one pipeline from decoder to encoder, and leaves no file behind', async () => {
    const input = await photo();
    const dir = scratch();
    const { data, extension } = await reencodeImage(input, dir);
    const direct = await sharp(input)
      .autoOrient()
      .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    expect(extension).toBe('jpg');
    expect(data.equals(direct)).toBe(true);
    const stored = await sharp(data).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([1200, 1600, undefined]);
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  }, 60_000);

  it('holds upload bodies while it re-encodes', async () => {
    const dir = scratch();
    const encoding = reencodeImage(await photo(), dir);
    await vi.waitFor(() => expect(bodiesHeld.holding).toBe(true));
    await encoding;
    expect(bodiesHeld.holding).toBe(false);
    rmSync(dir, { recursive: true });
  }, 60_000);

  it('leaves no file behind when the pixels stop decoding part-way', async () => {
    const input = await photo();
    const dir = scratch();
    // The header and the first strips are whole; the rest of the scan is gone.
    await expect(reencodeImage(input.subarray(0, input.length / 3), dir)).rejects.toBeInstanceOf(
      NotAnImageError,
    );
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  }, 60_000);
});
