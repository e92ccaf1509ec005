import { z } from 'zod';

/** DESIGN.md section 7, the Listeners tab: the periods staff can chart. */
export const LISTENER_STATS_PERIODS = [7, 30] as const;
export type ListenerStatsPeriod = (typeof LISTENER_STATS_PERIODS)[number];

/** GET /api/admin/listeners?days=7|30 */
export const listenerStatsQuerySchema = z.object({
  days: z
    .enum(['7', '30'], { error: 'days must be 7 or 30' })
    .default('7')
    .transform((days) => Number(days) as ListenerStatsPeriod),
});

export const listenerStatsSchema = z.object({
  days: z.union([z.literal(7), z.literal(30)]),
  /** Connected to the live stream right now. */
  listenersNow: z.number().int().nonnegative(),
  /** The most listeners at once over the period. */
  peakListeners: z.number().int().nonnegative(),
  /** Listeners per minute (the highest in each plotted interval when the period has more minutes than points). */
  perMinute: z.array(z.object({ at: z.iso.datetime(), listeners: z.number().nonnegative() })),
  /** Hours listened per day, in the station's time zone. */
  perDay: z.array(z.object({ date: z.string(), hours: z.number().nonnegative() })),
});
export type ListenerStats = z.infer<typeof listenerStatsSchema>;
