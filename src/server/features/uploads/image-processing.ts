import { rm, statfs } from 'node:fs/promises';
import type Sharp from 'sharp';
import type { Metadata, Sharp as Pipeline } from 'sharp';
import type { PictureTooLarge } from '../../../common/featured-content.js';
import { giveMemoryBack } from './give-back.js';
import { bodiesHeld, isSystemError } from './receive.js';
import { workFile } from './work-files.js';
import { heavyWork, WorkQueue } from './work-queue.js';
// sharp (libvips, about 27 MB resident) is loaded with the first picture, not at start: a small machine
// that never receives an upload never carries it.
// Sized for a small machine: one picture at a time, one libvips thread, and no cache of decoded images
// (a 6,300 x 6,300 picture decodes to about 120 MB; six at once held 250 MB that was never given back).
let loaded: Promise<{ default: typeof Sharp }> | undefined;
const loadSharp = async () => {
  loaded ??= import('sharp').then((module) => {
    module.default.concurrency(1);
    module.default.cache(false);
    return module;
  });
  return (await loaded).default;
};

/**
 * Pictures are re-encoded in the station's turns at heavy work; a few more wait (their files on disk, not in
 * memory), and an upload beyond those is answered 503 at once (measured by bench/uploads).
 */
export const imageQueue = new WorkQueue(heavyWork, 3);

/** The formats SPEC.md section 5 accepts, as sharp names them after reading the bytes. */
const ACCEPTED_FORMATS = ['jpeg', 'png', 'gif', 'webp'] as const;
type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];

const EXTENSIONS: Record<AcceptedFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };
/** Larger than any screen shows a featured card; keeps pages light. */
export const MAX_IMAGE_DIMENSION = 1600;
/**
 * Decoding a picture costs memory in proportion to its pixels times their bytes. A baseline JPEG or a plain
 * PNG is decoded in strips (a JPEG at a reduced size too: libjpeg shrinks on load), and costs about a quarter
 * of its decoded size (a 6,300 x 6,300 photo about 28 MB); other pictures (progressive JPEG, interlaced PNG,
 * GIF, WebP) are decoded whole and cost up to twice it (a 6,300 x 6,300 GIF took 225 MB). Both are bounded
 * before decoding (measured by bench/uploads).
 */
export const MAX_INPUT_PIXELS = 40_000_000;
const MAX_DECODED_BYTES = { strips: 120_000_000, whole: 20_000_000 };

export class NotAnImageError extends Error {}

/** More pixels than the station decodes for a picture of this kind. */
export class PictureTooLargeError extends Error {
  constructor(readonly description: PictureTooLarge) {
    super(`${description.kind} of ${description.width} x ${description.height} x ${description.frames}`);
  }
}

const isAccepted = (format: string | undefined): format is AcceptedFormat =>
  (ACCEPTED_FORMATS as readonly string[]).includes(format ?? '');

/** Refuses, before decoding, a picture that would cost more memory than the limits above allow. */
function checkPixels(meta: Metadata, format: AcceptedFormat) {
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const frames = meta.pages ?? 1;
  const inStrips = (format === 'jpeg' || format === 'png') && !meta.isProgressive;
  // libnsgif decodes every GIF to 8-bit RGBA.
  const channels = format === 'gif' ? 4 : (meta.channels ?? 4);
  const bytesPerPixel = channels * (meta.depth === 'ushort' ? 2 : 1);
  const maxPixels = Math.min(
    MAX_INPUT_PIXELS,
    Math.floor(MAX_DECODED_BYTES[inStrips ? 'strips' : 'whole'] / bytesPerPixel),
  );
  if (width * height * frames <= maxPixels) return;
  const kind = format === 'webp' ? 'WebP' : format === 'jpeg' ? 'JPEG' : format.toUpperCase();
  throw new PictureTooLargeError({
    kind: meta.isProgressive ? `${format === 'png' ? 'interlaced' : 'progressive'} ${kind}` : kind,
    width,
    height,
    frames,
    maxPixels,
  });
}

/** A write of the pixels that failed with less than this left on the disk failed for want of room. */
const MIN_FREE_BYTES = 1024 * 1024;
const DISK_FULL_ERROR = { code: 'ENOSPC', syscall: 'write' };

/**
 * A JPEG is encoded from the resized pixels written out first, not straight from the decoder: mozjpeg's
 * optimised encode holds the whole picture's coefficients (about 15 MB at 1,600 x 1,600), and libvips' buffers
 * for decoding and shrinking a large photo (about 15 MB more) would be held beside them. Through an
 * uncompressed PNG on disk (lossless, read back in strips), the two come one after the other: the same bytes
 * out, about 15 MB less at the peak (docs/decisions/025, "A JPEG encoded from its pixels on disk").
 */
async function encodeJpeg(sharp: typeof Sharp, resized: Pipeline, scratchDir: string): Promise<Buffer> {
  const pixels = workFile(scratchDir, 'pixels');
  try {
    // Written by libvips itself: through a Node stream sharp would queue the whole file in memory.
    await resized
      .png({ compressionLevel: 0 })
      .toFile(pixels)
      .catch(async (error: unknown) => {
        // libvips tells a full disk in words only: told by the room left, it is answered as one (507).
        const { bavail, bsize } = await statfs(scratchDir);
        if (bavail * bsize < MIN_FREE_BYTES) throw Object.assign(new Error(String(error)), DISK_FULL_ERROR);
        throw error;
      });
    // What decoding freed goes back to the system before the encoder asks for its own.
    await giveMemoryBack();
    return await sharp(pixels).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  } finally {
    await rm(pixels, { force: true });
  }
}

/**
 * Checks what the bytes really are (never the name or the declared type), then re-encodes the picture:
 * upright, at most MAX_IMAGE_DIMENSION on a side, in its own format, with EXIF, GPS and other metadata
 * dropped (sharp writes none unless asked). `input` is the picture or the file holding it; `scratchDir` takes
 * a file of the picture's pixels for a moment (see encodeJpeg). Run it through a place in `imageQueue`.
 */
export async function reencodeImage(
  input: Buffer | string,
  scratchDir: string,
): Promise<{ data: Buffer; extension: string }> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Only the header is read; the pixel limits are checked below, with their own message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new NotAnImageError(String(error));
  }
  if (!isAccepted(meta.format)) throw new NotAnImageError(`unaccepted format ${meta.format}`);
  const format = meta.format;
  const animated = (meta.pages ?? 1) > 1;
  checkPixels(meta, format);
  try {
    let resized = sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS });
    // Orientation lives in the EXIF we drop, so apply it to the pixels first.
    if (!animated) resized = resized.autoOrient();
    resized = resized.resize({
      width: MAX_IMAGE_DIMENSION,
      height: MAX_IMAGE_DIMENSION,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const data = await bodiesHeld.during(() =>
      format === 'jpeg'
        ? encodeJpeg(sharp, resized, scratchDir)
        : format === 'png'
          ? resized.png().toBuffer()
          : format === 'webp'
            ? resized.webp({ quality: 85 }).toBuffer()
            : resized.gif().toBuffer(),
    );
    return { data, extension: EXTENSIONS[format] };
  } catch (error) {
    if (isSystemError(error)) throw error;
    // The header looked like an image but the pixels do not decode: still not an image we can use.
    throw new NotAnImageError(String(error));
  }
}
