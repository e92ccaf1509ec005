import { z } from 'zod';

/** The ways the share card and component share the station (SPEC.md section 2, share component). */
export const SHARE_CHANNELS = ['native', 'copy', 'facebook', 'twitter', 'whatsapp'] as const;
export type ShareChannel = (typeof SHARE_CHANNELS)[number];

export const shareEventBodySchema = z.object({
  channel: z.enum(SHARE_CHANNELS, { error: `Channel must be one of ${SHARE_CHANNELS.join(', ')}` }),
});
export type ShareEventBody = z.infer<typeof shareEventBodySchema>;

/**
 * The 'Viral Impact' card's figures, all measured (DESIGN.md section 7): listeners now and today's peak from
 * the broadcaster, shares counted through POST /api/share-events, hours listened today as the engagement
 * figure. A figure the station does not measure is null, and the card says so.
 */
export const viralStatsSchema = z.object({
  listenersNow: z.number().int().nonnegative(),
  peakToday: z.number().int().nonnegative(),
  sharesToday: z.number().int().nonnegative(),
  sharesTotal: z.number().int().nonnegative(),
  hoursListenedToday: z.number().nonnegative(),
  countries: z.number().int().nonnegative().nullable(),
});
export type ViralStats = z.infer<typeof viralStatsSchema>;
