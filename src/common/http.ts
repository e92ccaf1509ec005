import { z } from 'zod';

/** The body of every error answer from /api. */
export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An `:id` route parameter: the ids the station hands out (uuids), never a path or a NUL. */
export const idParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/, 'is not a valid id'),
});
