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

export const streamInfoSchema = z.object({
  /** The main stream (the highest bitrate on); the player adds its quality parameter to it. */
  streamUrl: z.string(),
  /** Every bitrate on air and its own address (one entry for a station elsewhere). */
  streams: z.array(z.object({ kbps: z.number().int().nullable(), url: z.string() })),
});
export type StreamInfo = z.infer<typeof streamInfoSchema>;

/** The live mount. */
export const STREAM_PATH = '/stream';

/** SPEC.md section 9's quality table: the stream is encoded at each of these (kbps); /stream is the first. */
export const STREAM_BITRATES = [128, 96, 80, 64] as const;
export type StreamBitrate = (typeof STREAM_BITRATES)[number];
/** The mount of one bitrate: /stream/64. */
export const streamPathFor = (kbps: number) => `${STREAM_PATH}/${kbps}`;

/** Query of GET /stream: SPEC.md's adaptive URL adds a quality (bitrate) and a time stamp; both are accepted and ignored. */
export const streamQuerySchema = z.object({
  quality: z.coerce.number().int().min(8).max(320).optional(),
  t: z.string().max(64).optional(),
});

/** Query of the Icecast admin call encoders send: GET /admin/metadata?mount=/stream&mode=updinfo&song=... */
export const sourceMetadataQuerySchema = z.object({
  mount: z.string().max(200),
  mode: z.literal('updinfo'),
  song: z.string().max(1024),
  charset: z.string().max(40).optional(),
});

/** GET /api/radio/stats: the public live figures. */
export const radioStatsSchema = z.object({
  listeners: z.number().int().nonnegative(),
  peakToday: z.number().int().nonnegative(),
});
export type RadioStats = z.infer<typeof radioStatsSchema>;

/** The Station tab's stream source: the built-in broadcaster (null), or a station elsewhere. */
export const STREAM_SOURCE_PATTERN = /^(icecast|url):https?:\/\/\S+$/;
export const streamSourceSchema = z.object({
  streamSource: z
    .string({ error: 'Stream source must be text' })
    .trim()
    .max(2000, 'Stream source must be at most 2,000 characters')
    .regex(STREAM_SOURCE_PATTERN, 'Stream source must be icecast:URL or url:URL (an http or https address)')
    .nullable(),
  /** Whether the address may be on a private network (kept as it was when left out). */
  allowPrivateNetwork: z.boolean({ error: 'Allow a private network must be true or false' }).optional(),
});
export type StreamSourceBody = z.infer<typeof streamSourceSchema>;
/** What the Station tab reads: the source, and whether a private network source is allowed. */
export const streamSourceStateSchema = streamSourceSchema.extend({ allowPrivateNetwork: z.boolean() });
export type StreamSourceState = z.infer<typeof streamSourceStateSchema>;
/** The one answer to every address the station will not use, so the check cannot map a network. */
export const STREAM_SOURCE_REFUSED = 'Not saved: that address cannot be used as the stream source.';
