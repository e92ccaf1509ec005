import { z } from 'zod';

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
});
export type FeaturedItem = z.infer<typeof featuredItemSchema>;
