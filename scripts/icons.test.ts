import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { artworkFor } from '../src/common/player';

// The lock screen's artwork declares the logo at several sizes: each must be a PNG of exactly that size
// in the public folder (scripts/make-icons.mjs makes them).
describe('lock-screen artwork files', () => {
  for (const image of artworkFor(null)) {
    it(`${image.src} is a ${image.sizes} ${image.type}`, async () => {
      const file = `src/client/public${image.src}`;
      expect(existsSync(file)).toBe(true);
      const { width, height, format } = await sharp(file).metadata();
      expect(`${width}x${height}`).toBe(image.sizes);
      expect(`image/${format}`).toBe(image.type);
    });
  }
});
