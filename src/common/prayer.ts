import { z } from 'zod';

/** Staff view of a prayer request (SPEC.md section 3 table, plus DESIGN.md section 7's prayed-for who and when). */
export const prayerRequestSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().nullable(),
  request: z.string(),
  createdAt: z.string(),
  prayedAt: z.string().nullable(),
  prayedBy: z.string().nullable(),
});
export type PrayerRequest = z.infer<typeof prayerRequestSchema>;
export const prayerRequestListSchema = z.array(prayerRequestSchema);

export const PRAYER_FILTERS = ['open', 'prayed'] as const;
export type PrayerFilter = (typeof PRAYER_FILTERS)[number];
