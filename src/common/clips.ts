import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** Server-cut clips (POST /api/clips): seconds of the broadcaster's recent audio, by stream clock. */
export const SERVER_CLIP_SECONDS = { min: 10, max: 120 } as const;

/**
 * The broadcaster keeps at least this much of its recent audio (the connect burst and clips come from it):
 * a moment older than that can no longer be cut.
 */
export const RECENT_BROADCAST_SECONDS = 300;

/**
 * A recording made in the browser, shared as the server's clip of the same moment: the stream-clock
 * seconds it ran from and to. At least one second, at most the longest clip.
 */
export const CLIP_RANGE_SECONDS = { min: 1, max: SERVER_CLIP_SECONDS.max } as const;

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
