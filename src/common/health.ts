import { z } from 'zod';

/** One readiness check: `ok`, `off` (not used by this instance) or what went wrong. */
export const readinessCheckSchema = z.union([z.literal('ok'), z.literal('off'), z.string()]);

/** GET /readyz: 200 when every check is ok or off, else 503 with the first failing check as `reason`. */
export const readinessSchema = z.object({
  ready: z.boolean(),
  reason: z.string().optional(),
  checks: z.object({
    database: readinessCheckSchema,
    redis: readinessCheckSchema,
    broadcaster: readinessCheckSchema,
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** GET /healthz: 200 while the process lives. */
export const livenessSchema = z.object({ alive: z.literal(true) });
