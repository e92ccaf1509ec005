import { z } from 'zod';
import { CLIP_RANGE_SECONDS, SERVER_CLIP_SECONDS } from './clip-limits.js';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

export { CLIP_RANGE_SECONDS, RECENT_BROADCAST_SECONDS, SERVER_CLIP_SECONDS } from './clip-limits.js';

export const clipRangeSchema = z
  .object({ from: z.number().nonnegative(), to: z.number().nonnegative() })
  .refine((r) => r.to - r.from >= CLIP_RANGE_SECONDS.min, {
    message: `to must be at least ${CLIP_RANGE_SECONDS.min} s after from`,
  })
  .refine((r) => r.to - r.from <= CLIP_RANGE_SECONDS.max, {
    message: `a clip is at most ${CLIP_RANGE_SECONDS.max} s long`,
  });
export type ClipRange = z.infer<typeof clipRangeSchema>;

/** Either the `seconds` heard up to `streamClock` (saving a moment), or a recording's `range`. */
export const createClipBodySchema = z
  .object({
    seconds: z.number().int().min(SERVER_CLIP_SECONDS.min).max(SERVER_CLIP_SECONDS.max).optional(),
    title: z.string().trim().max(200).refine(isStorableText, `title ${STORABLE_TEXT_MESSAGE}`).optional(),
    description: z
      .string()
      .trim()
      .max(1000)
      .refine(isStorableText, `description ${STORABLE_TEXT_MESSAGE}`)
      .optional(),
    /** The stream-clock second the listener is hearing; the clip ends there. Default: the live edge. */
    streamClock: z.number().nonnegative().optional(),
    range: clipRangeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.range === undefined && body.seconds === undefined)
      ctx.addIssue({ code: 'custom', path: ['seconds'], message: 'give the seconds or the range to clip' });
    if (body.range !== undefined && body.seconds !== undefined)
      ctx.addIssue({ code: 'custom', path: ['range'], message: 'give either seconds or a range, not both' });
    if (body.range !== undefined && body.streamClock !== undefined)
      ctx.addIssue({ code: 'custom', path: ['streamClock'], message: 'a range carries its own end' });
  });
export type CreateClipBody = z.infer<typeof createClipBodySchema>;

export const clipSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  duration: z.number().int(),
  trackTitle: z.string().nullable(),
  mimeType: z.string(),
  fileSize: z.number().int(),
  createdAt: z.string(),
  shareCount: z.number().int(),
  downloadCount: z.number().int(),
  audioUrl: z.string(),
  shareUrl: z.string(),
});
export type Clip = z.infer<typeof clipSchema>;

export const createdClipSchema = z.object({
  id: z.string(),
  title: z.string(),
  audioUrl: z.string(),
  shareUrl: z.string(),
  duration: z.number().int(),
});
export type CreatedClip = z.infer<typeof createdClipSchema>;

export { idParamsSchema as clipParamsSchema } from './http.js';
export const clipShareResponseSchema = z.object({ shareCount: z.number().int() });

export const clipAudioPath = (id: string) => `/api/clips/${encodeURIComponent(id)}/audio`;
export const clipPagePath = (id: string) => `/clips/${encodeURIComponent(id)}`;
