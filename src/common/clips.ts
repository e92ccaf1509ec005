import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** Server-cut clips (POST /api/clips): seconds of the broadcaster's recent audio, by stream clock. */
export const SERVER_CLIP_SECONDS = { min: 10, max: 120 } as const;

export const createClipBodySchema = z.object({
  seconds: z.number().int().min(SERVER_CLIP_SECONDS.min).max(SERVER_CLIP_SECONDS.max),
  title: z.string().trim().max(200).refine(isStorableText, `title ${STORABLE_TEXT_MESSAGE}`).optional(),
  description: z
    .string()
    .trim()
    .max(1000)
    .refine(isStorableText, `description ${STORABLE_TEXT_MESSAGE}`)
    .optional(),
  /** The stream-clock second the listener is hearing; the clip ends there. Default: the live edge. */
  streamClock: z.number().nonnegative().optional(),
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
