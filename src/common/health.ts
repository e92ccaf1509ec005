import { z } from 'zod';

/** One readiness check: `ok`, `off` (not used by this instance) or what went wrong. */
export const readinessCheckSchema = z.union([z.literal('ok'), z.literal('off'), z.string()]);

/**
 * GET /readyz: ready (200) when the instance can serve: the database answers, its disk takes writes and, on a
 * web instance, the broadcaster is heard; else 503 with the first failing check as `reason`. Redis away
 * leaves it ready, serving its own view, with 'redis' named in `degraded`.
 */
export const readinessSchema = z.object({
  ready: z.boolean(),
  reason: z.string().optional(),
  degraded: z.array(z.enum(['redis'])).optional(),
  checks: z.object({
    database: readinessCheckSchema,
    disk: readinessCheckSchema,
    redis: readinessCheckSchema,
    broadcaster: readinessCheckSchema,
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** GET /healthz: 200 while the process lives. */
export const livenessSchema = z.object({ alive: z.literal(true) });
