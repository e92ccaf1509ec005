import { z } from 'zod';

/** DESIGN.md section 7, the Listeners tab: the periods staff can chart. */
export const LISTENER_STATS_PERIODS = [7, 30] as const;
export type ListenerStatsPeriod = (typeof LISTENER_STATS_PERIODS)[number];

/** GET /api/admin/listeners?days=7|30 (7 when left out). */
export const listenerStatsQuerySchema = z.object({
  days: z
    .enum(['7', '30'], { error: 'days must be 7 or 30' })
    .default('7')
    .transform((days) => Number(days) as ListenerStatsPeriod),
});

/** Per-minute points beyond this are merged (keeping each interval's highest count) so a chart stays light. */
export const MAX_CHART_POINTS = 1440;

export const listenerStatsSchema = z.object({
  days: z.union([z.literal(7), z.literal(30)]),
  /** The end of the period (when the figures were read); it began `days` days earlier. */
  until: z.iso.datetime(),
  /** The most listeners at once over the period. */
  peakListeners: z.number().int().nonnegative(),
  /** Hours listened over the period. */
  listeningHours: z.number().nonnegative(),
  /** Listeners per minute, oldest first; each point covers `minutesPerPoint` minutes (its highest count). */
  perMinute: z.array(z.object({ at: z.iso.datetime(), listeners: z.number().int().nonnegative() })),
  minutesPerPoint: z.number().int().positive(),
  /** Hours listened per day (the station's time zone), oldest first, days without listening included as 0. */
  perDay: z.array(z.object({ date: z.string(), hours: z.number().nonnegative() })),
});
export type ListenerStats = z.infer<typeof listenerStatsSchema>;
