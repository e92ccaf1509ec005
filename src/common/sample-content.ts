import { z } from 'zod';

/** GET /api/admin/sample-content: how much of what a fresh station came with is still there. */
export const sampleContentSchema = z.object({
  programs: z.number().int().nonnegative(),
  featured: z.number().int().nonnegative(),
});
export type SampleContent = z.infer<typeof sampleContentSchema>;

/** POST /api/admin/sample-content/removal: the server too wants the removal confirmed. */
export const sampleRemovalBodySchema = z
  .object(
    { confirm: z.literal(true, { error: 'confirm must be true' }) },
    { error: 'A body { confirm: true } is required' },
  )
  .strict();

/** What a removal took away (0 and 0 when there was nothing left to remove). */
export const sampleRemovalSchema = z.object({ removed: sampleContentSchema });

export const SAMPLE_NOTICE_TITLE = 'This station is showing sample content';
export const SAMPLE_REMOVE_QUESTION =
  'Remove every sample programme and featured item? What your staff added or edited stays.';
