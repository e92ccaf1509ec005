import { z } from 'zod';

/** What an as-run row was: a library item, a live source, the station's fill (nothing scheduled), a relayed station. */
export const AS_RUN_KINDS = ['library', 'live', 'fill', 'relay'] as const;
export type AsRunKind = (typeof AS_RUN_KINDS)[number];

/**
 * Why it aired: the schedule's programme, the rotation (no programme), fill (nothing to play, or a live
 * programme whose presenter is not there), a presenter's own password, the station's source password, a
 * relayed station elsewhere.
 */
export const AS_RUN_REASONS = [
  'schedule',
  'rotation',
  'fill',
  'presenter',
  'station_password',
  'relay',
] as const;
export type AsRunReason = (typeof AS_RUN_REASONS)[number];

export const AS_RUN_REASON_LABELS: Record<AsRunReason, string> = {
  schedule: 'Schedule',
  rotation: 'Rotation',
  fill: 'Dead-air fill',
  presenter: 'Presenter (own password)',
  station_password: 'Station password',
  relay: 'Relayed station',
};

/** What played a stream, from its User-Agent: a browser, an app, an encoder-style client (VLC, ffmpeg…), a relay. */
export const PLAYER_KINDS = ['browser', 'app', 'encoder', 'relay', 'other'] as const;
export type PlayerKind = (typeof PLAYER_KINDS)[number];

export const PLAYER_LABELS: Record<PlayerKind, string> = {
  browser: 'Web browser',
  app: 'App',
  encoder: 'Media player or tool (VLC, ffmpeg, Winamp…)',
  relay: 'Relay (counted from its status page)',
  other: 'Other',
};

/**
 * THE counting rule (docs/reports.md): a connection is a listener when it stayed this long. A browser's preload,
 * a player probing the stream, a link checker or a 1-second connection is not. HEAD requests never are.
 */
export const MIN_LISTENER_SECONDS = 10;
export const countsAsListener = (seconds: number) => seconds >= MIN_LISTENER_SECONDS;

/** The player kind of a User-Agent. */
export function playerOf(userAgent: string | undefined): PlayerKind {
  const ua = userAgent ?? '';
  if (/^icecast/i.test(ua)) return 'relay';
  if (
    /VLC|ffmpeg|Lavf|libmpv|mpv|mplayer|Winamp|foobar2000|iTunes|Music\/|AppleCoreMedia|curl|Wget|mpg123|NSPlayer|Windows-Media-Player|BASS|Liquidsoap|streamripper/i.test(
      ua,
    )
  )
    return 'encoder';
  if (/Mozilla\/|Opera\//.test(ua)) {
    // An app's web view says so (wv, an app name after the engine) or is a known radio app.
    if (/; wv\)|TuneIn|RadioGarden|Alexa|Sonos|okhttp|Dalvik|CFNetwork/i.test(ua)) return 'app';
    return 'browser';
  }
  if (/TuneIn|Radio|Alexa|Sonos|okhttp|Dalvik|CFNetwork|ExoPlayer|stagefright/i.test(ua)) return 'app';
  return 'other';
}

/** One row of the as-run log as staff read it (times to the tenth of a second). */
export const asRunEntrySchema = z.object({
  id: z.number().int(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  /** The same instants written in the station's time zone, 'YYYY-MM-DD HH:MM:SS.s'. */
  startedLocal: z.string(),
  endedLocal: z.string().nullable(),
  seconds: z.number().nullable(),
  kind: z.enum(AS_RUN_KINDS),
  reason: z.enum(AS_RUN_REASONS),
  mediaId: z.string().nullable(),
  title: z.string(),
  artist: z.string(),
  album: z.string(),
  label: z.string(),
  isrc: z.string(),
  composer: z.string(),
  ccliSongNumber: z.string(),
  licenceClass: z.enum(['music', 'speech', 'jingle']).nullable(),
  programmeId: z.string().nullable(),
  programmeTitle: z.string().nullable(),
  listenersPeak: z.number().int().nullable(),
  listenersAverage: z.number().nullable(),
  performances: z.number().int().nullable(),
});
export type AsRunEntry = z.infer<typeof asRunEntrySchema>;
