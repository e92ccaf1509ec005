import type Sharp from 'sharp';
import { WorkQueue } from './work-queue.js';
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
 * Pictures are re-encoded one at a time; a few more wait (their files on disk, not in memory), and an upload
 * beyond those is answered 503 at once (measured by bench/uploads).
 */
export const imageQueue = new WorkQueue(1, 3);

/** The formats SPEC.md section 5 accepts, as sharp names them after reading the bytes. */
const ACCEPTED_FORMATS = ['jpeg', 'png', 'gif', 'webp'] as const;
type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];

const EXTENSIONS: Record<AcceptedFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' };
/** Larger than any screen shows a featured card; keeps pages light. */
export const MAX_IMAGE_DIMENSION = 1600;
/** Refuses decompression bombs: a tiny file that would decode to gigabytes. */
const MAX_INPUT_PIXELS = 40_000_000;

export class NotAnImageError extends Error {}

const isAccepted = (format: string | undefined): format is AcceptedFormat =>
  (ACCEPTED_FORMATS as readonly string[]).includes(format ?? '');

/**
 * Checks what the bytes really are (never the name or the declared type), then re-encodes the picture:
 * upright, at most MAX_IMAGE_DIMENSION on a side, in its own format, with EXIF, GPS and other metadata
 * dropped (sharp writes none unless asked). `input` is the picture or the file holding it; run it through
 * a place in `imageQueue`.
 */
export async function reencodeImage(input: Buffer | string): Promise<{ data: Buffer; extension: string }> {
  let format: AcceptedFormat;
  let animated: boolean;
  const sharp = await loadSharp();
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!isAccepted(meta.format)) throw new NotAnImageError(`unaccepted format ${meta.format}`);
    format = meta.format;
    animated = (meta.pages ?? 1) > 1;
  } catch (error) {
    throw error instanceof NotAnImageError ? error : new NotAnImageError(String(error));
  }
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
