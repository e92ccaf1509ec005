// Renders the PWA icons and the social image from src/client/public/logo.svg (run after changing the logo):
//   node scripts/make-icons.mjs
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import sharp from 'sharp';

const publicDir = new URL('../src/client/public/', import.meta.url);
const logo = readFileSync(new URL('logo.svg', publicDir));
const BLUE = '#1e3a8a';

await mkdir(new URL('icons/', publicDir), { recursive: true });

const render = (size) =>
  sharp(logo, { density: 72 * Math.ceil(size / 64) })
    .resize(size, size)
    .png();

// 192 and 512 for the web app manifest; every size for the lock screen's artwork (ARTWORK_SIZES in
// src/common/player.ts, whose test checks each file is there at its size).
for (const size of [96, 128, 192, 256, 384, 512, 1024])
  await render(size).toFile(new URL(`icons/icon-${size}.png`, publicDir).pathname);
await render(180)
  .flatten({ background: BLUE })
  .toFile(new URL('icons/apple-touch-icon.png', publicDir).pathname);

// Maskable: the mark inside the 80% safe zone on a full-bleed background.
const inner = await render(360).toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: BLUE } })
  .composite([{ input: inner, gravity: 'center' }])
  .png()
  .toFile(new URL('icons/maskable-512.png', publicDir).pathname);

// Social image (1200x630): the mark on the station's blue with a gold rule.
const mark = await render(300).toBuffer();
const background = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#172554"/><stop offset="1" stop-color="${BLUE}"/></linearGradient></defs>
    <rect width="1200" height="630" fill="url(#g)"/>
    <rect x="0" y="600" width="1200" height="30" fill="#fbbf24"/>
  </svg>`,
);
await sharp(background)
  .composite([{ input: mark, gravity: 'center' }])
  .png()
  .toFile(new URL('og-image.png', publicDir).pathname);

console.log('icons written to src/client/public/icons and og-image.png');
