import { z } from 'zod';

/** The body of every error answer from /api. */
export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
