// Clip limits without zod, so the recorder's code in the home page can use them.

/** Server-cut clips (POST /api/clips): seconds of the broadcaster's recent audio, by stream clock. */
export const SERVER_CLIP_SECONDS = { min: 10, max: 120 } as const;

/**
 * The broadcaster keeps at least this much of its recent audio (the connect burst and clips come from it):
 * a moment older than that can no longer be cut.
 */
export const RECENT_BROADCAST_SECONDS = 300;

/**
 * A recording made in the browser, shared as the server's clip of the same moment: the stream-clock
 * seconds it ran from and to. At least one second, at most the longest clip.
 */
export const CLIP_RANGE_SECONDS = { min: 1, max: SERVER_CLIP_SECONDS.max } as const;
