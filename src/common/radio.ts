import { z } from 'zod';

/** What is on air, as GET /api/radio/current answers and the `now_playing` push carries. */
export const trackSchema = z.object({
  title: z.string(),
  artist: z.string(),
  artwork_url: z.string().nullable(),
  /** Stream-clock second at which this track started (DESIGN.md section 4). */
  started_at: z.number(),
});
export type Track = z.infer<typeof trackSchema>;

export const nowPlayingSchema = z.object({
  current_track: trackSchema,
  is_live: z.boolean(),
  listeners: z.number().int().nonnegative(),
  /** Seconds of audio broadcast since the station started; never goes back. */
  stream_clock: z.number().nonnegative(),
});
export type NowPlaying = z.infer<typeof nowPlayingSchema>;

export const streamInfoSchema = z.object({ streamUrl: z.string() });
export type StreamInfo = z.infer<typeof streamInfoSchema>;

/** The live mount. */
export const STREAM_PATH = '/stream';
