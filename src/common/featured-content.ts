import { z } from 'zod';
import {
  CONTROL_CHARACTER_MESSAGE,
  hasNoStrayControlCharacters,
  isStorableText,
  STORABLE_TEXT_MESSAGE,
} from './text.js';

/** SPEC.md section 9: content types. */
export const CONTENT_TYPES = ['sermon', 'devotion', 'music', 'announcement'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** SPEC.md section 3: a featured item as the listener sees it (GET /api/featured-content). */
export const featuredItemSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable().optional(),
  audioUrl: z.string().nullable().optional(),
  speaker: z.string().nullable().optional(),
  duration: z.string().nullable().optional(),
  playCount: z.number().int().nonnegative(),
  /** Came with a fresh station (sample content) and was never edited: the Content tab marks it. */
  sample: z.boolean().optional(),
  /** Where its audio's finished transcript is read (WebVTT), when it has one (docs/decisions/040). */
  transcriptUrl: z.string().optional(),
});
export type FeaturedItem = z.infer<typeof featuredItemSchema>;
export const featuredListSchema = z.array(featuredItemSchema);

/** Our own uploads ('/uploads/…'), a library item's audio for audio ('/media/…'), or an http(s) address; empty means none. */
const mediaUrl = (ours: RegExp, message: string) =>
  z
    .string()
    .trim()
    .max(2000, 'The address is too long')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine((value) => value === '' || ours.test(value) || /^https?:\/\/\S+$/.test(value), { message })
    .nullish()
    .transform((value) => (value === '' ? null : value));
const imageUrl = mediaUrl(/^\/uploads\/[\w.-]+$/, 'Must be an uploaded file or an http(s) address');
const audioUrl = mediaUrl(
  /^(\/uploads\/[\w.-]+|\/media\/[\w-]+)$/,
  'Must be an uploaded file, a library item or an http(s) address',
);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(hasNoStrayControlCharacters, CONTROL_CHARACTER_MESSAGE)
    .nullish()
    .transform((value) => (value === '' ? null : value));

/**
 * POST and PUT /api/featured-content. SPEC.md section 5: title and description must not be blank.
 * On PUT a field left out keeps its stored value; null or '' clears it (the image and the audio too).
 */
export const featuredContentBodySchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title is too long')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    // They reach the podcast feed, where XML allows no control character but tab and line breaks.
    .refine(hasNoStrayControlCharacters, `Title ${CONTROL_CHARACTER_MESSAGE}`),
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .max(5000, 'Description is too long')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE)
    .refine(hasNoStrayControlCharacters, `Description ${CONTROL_CHARACTER_MESSAGE}`),
  type: z.enum(CONTENT_TYPES, { error: 'Type must be sermon, devotion, music or announcement' }),
  imageUrl,
  audioUrl,
  speaker: optionalText(120),
  duration: optionalText(40),
});
export type FeaturedContentBody = z.input<typeof featuredContentBodySchema>;

/** A picture or recording named by a form opened before it was replaced or removed elsewhere (400). */
export const IMAGE_NO_LONGER_STORED = 'This image is no longer on the station. Please upload it again.';
export const AUDIO_NO_LONGER_STORED = 'This audio file is no longer on the station. Please upload it again.';

export { idParamsSchema as featuredIdParamsSchema } from './http.js';

export const playResponseSchema = z.object({ playCount: z.number().int() });

/** SPEC.md sections 5 and 9, image upload. */
export const MAX_IMAGE_UPLOAD_BYTES = 5 * 1024 * 1024;
export const IMAGE_UPLOAD_FIELD = 'image';
export const ACCEPTED_IMAGE_TYPES = [
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/gif',
  'image/webp',
] as const;
export const INVALID_FILE_TYPE = {
  title: 'Invalid file type',
  message: 'Please upload an image file (JPEG, PNG, GIF, or WebP)',
};
export const FILE_TOO_LARGE = { title: 'File too large', message: 'Please upload an image smaller than 5MB' };
/** A picture with more pixels than the station decodes for its kind: refused before it is decoded (400). */
export interface PictureTooLarge {
  /** 'JPEG', 'progressive JPEG', 'PNG', 'GIF' or 'WebP'. */
  kind: string;
  width: number;
  height: number;
  frames: number;
  maxPixels: number;
}
const millions = (pixels: number) => `${Number((pixels / 1e6).toFixed(1))} million`;
export const pictureTooLarge = ({ kind, width, height, frames, maxPixels }: PictureTooLarge) =>
  `This ${kind} picture is ${width} x ${height} pixels` +
  (frames > 1 ? ` in ${frames} frames (${millions(width * height * frames)} pixels in all)` : '') +
  `; the station takes a ${kind} picture of up to ${millions(maxPixels)} pixels. ` +
  'Please make it smaller and upload it again.';
export const uploadImageResponseSchema = z.object({ imageUrl: z.string() });

/** Sermon audio (DESIGN.md section 7): MP3 or M4A, checked by content, up to 200 MB (about 3 hours at 128 kbps). */
export const MAX_AUDIO_UPLOAD_BYTES = 200 * 1024 * 1024;
export const AUDIO_UPLOAD_FIELD = 'audio';
export const INVALID_AUDIO_FILE = 'Please upload an MP3 or M4A audio file';
export const AUDIO_TOO_LARGE = 'Please upload an audio file smaller than 200MB';
/** The header claims more audio than decodes from the file (cut short, or made to lie). */
export const incompleteAudioFile = (claimedSeconds: number, decodedSeconds: number) =>
  `This audio file is incomplete: it plays ${decodedSeconds} of the ${claimedSeconds} seconds it claims. Please upload the whole file.`;
export const AUDIO_CHECK_TIMED_OUT =
  'The station could not finish checking this audio file in time. Please try again later.';
/** An upload beyond the few the station works on at once (503 with Retry-After). */
export const UPLOADS_BUSY = 'The station is busy with other uploads. Please try again in a minute.';
export const uploadAudioResponseSchema = z.object({
  audioUrl: z.string(),
  /** Whole seconds, read from the file. */
  durationSeconds: z.number().int().nonnegative(),
  mimeType: z.enum(['audio/mpeg', 'audio/mp4']),
  size: z.number().int().nonnegative(),
});
export type UploadAudioResponse = z.infer<typeof uploadAudioResponseSchema>;
