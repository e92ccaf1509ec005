import type Sharp from 'sharp';
import type { Metadata } from 'sharp';
import type { PictureTooLarge } from '../../../common/featured-content.js';
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

/**
 * Checks what the bytes really are (never the name or the declared type), then re-encodes the picture:
 * upright, at most MAX_IMAGE_DIMENSION on a side, in its own format, with EXIF, GPS and other metadata
 * dropped (sharp writes none unless asked). `input` is the picture or the file holding it; run it through
 * a place in `imageQueue`.
 */
export async function reencodeImage(input: Buffer | string): Promise<{ data: Buffer; extension: string }> {
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
    let pipeline = sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS });
    // Orientation lives in the EXIF we drop, so apply it to the pixels first.
    if (!animated) pipeline = pipeline.autoOrient();
    pipeline = pipeline.resize({
      width: MAX_IMAGE_DIMENSION,
      height: MAX_IMAGE_DIMENSION,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const encoded =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : format === 'png'
          ? pipeline.png()
          : format === 'webp'
            ? pipeline.webp({ quality: 85 })
            : pipeline.gif();
    return { data: await encoded.toBuffer(), extension: EXTENSIONS[format] };
  } catch (error) {
    // The header looked like an image but the pixels do not decode: still not an image we can use.
    throw new NotAnImageError(String(error));
  }
}
