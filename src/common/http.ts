import { z } from 'zod';

/** The body of every error answer from /api. */
export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** 507: a write refused because the station's disk (or its database's) is full. */
export const DISK_FULL = "The station's disk is full: this change was not saved.";

/** What a staff route answers besides success: bad input, no or a bad token, the wrong role, nothing there. */
export const staffErrorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/** A route parameter that names something the station handed out: word characters and dashes, never a path or a NUL. */
export const tokenParam = (what: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/, `is not a valid ${what}`);

/** An `:id` route parameter: the ids the station hands out (uuids). */
export const idParamsSchema = z.object({ id: tokenParam('id') });
