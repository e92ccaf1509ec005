// Owns: reading a station elsewhere's status document (Icecast, Radio.co style, AzuraCast) into one shape.
// Must not: fetch anything or keep state; it parses what it is handed and refuses what it cannot read.
import { z } from 'zod';

/** What an external station's status endpoint says is on air, whatever its dialect. */
export interface UpstreamStatus {
  title: string | null;
  artist: string | null;
  artworkUrl: string | null;
  listeners: number;
  onAir: boolean;
  /** Wall-clock milliseconds at which the track started, when the upstream says. */
  startedAtMs: number | null;
}

export class UpstreamStatusError extends Error {}

const TEXT_LIMIT = 300;
const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => {
    const trimmed = value === null || value === undefined ? '' : String(value).trim();
    return trimmed ? trimmed.slice(0, TEXT_LIMIT) : null;
  });
const count = z.coerce
  .number()
  .catch(0)
  .transform((n) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0));
// Artwork is shown by the listener page: only http(s) addresses, never javascript: or data:.
const artwork = z
  .string()
  .nullish()
  .catch(null)
  .transform((value) => (value && /^https?:\/\/\S+$/i.test(value.trim()) ? value.trim() : null));

// Icecast 2.4 status-json.xsl: `source` is one object for one mount, an array for several, absent for none.
const icecastSource = z.object({
  listenurl: z.string().nullish(),
  title: text,
  artist: text,
  listeners: count,
});
const icecastStatus = z.object({
  icestats: z.object({ source: z.union([icecastSource, z.array(icecastSource)]).nullish() }),
});

// Radio.co style: { status, current_track: { title: 'Artist - Title', artwork_url, start_time } }.
const radioCoStatus = z.object({
  status: z.string().nullish(),
  current_track: z.object({ title: text, artwork_url: artwork, start_time: z.string().nullish() }).nullish(),
});

// AzuraCast /api/nowplaying/{station}: many self-hosted stations publish this one.
const azuraCastStatus = z.object({
  now_playing: z
    .object({
      song: z.object({ title: text, artist: text, text: text, art: artwork }).nullish(),
      played_at: z.number().nullish(),
    })
    .nullish(),
  listeners: z.object({ current: count }).nullish(),
  is_online: z.boolean().nullish(),
});

/** Icecast and Radio.co often carry only 'Artist - Title' in the title. */
export function splitArtistTitle(
  title: string | null,
  artist: string | null,
): { title: string | null; artist: string | null } {
  if (!title || artist) return { title, artist };
  const at = title.indexOf(' - ');
  if (at <= 0 || at + 3 >= title.length) return { title, artist };
  return { artist: title.slice(0, at).trim(), title: title.slice(at + 3).trim() };
}

const pathOf = (url: string | null | undefined) => {
  try {
    return url ? new URL(url, 'http://x').pathname : null;
  } catch {
    return null;
  }
};
const lastSegment = (path: string | null) => path?.split('/').filter(Boolean).at(-1) ?? null;

/**
 * The Icecast mount our stream URL points at. Icecast reports `listenurl` with its own configured host
 * name, so mounts match by path, then by last path segment (a proxy may add a prefix), then the sole mount.
 */
function pickMount<T extends { listenurl?: string | null }>(sources: T[], streamUrl: string): T | undefined {
  const path = pathOf(streamUrl);
  return (
    sources.find((s) => pathOf(s.listenurl) === path) ??
    sources.find((s) => lastSegment(pathOf(s.listenurl)) === lastSegment(path)) ??
    (sources.length === 1 ? sources[0] : undefined)
  );
}

const parseTime = (value: string | null | undefined) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : null;
};

/** Reads an Icecast, Radio.co-style or AzuraCast status document; throws UpstreamStatusError otherwise. */
export function readUpstreamStatus(body: string, streamUrl: string): UpstreamStatus {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new UpstreamStatusError('the status answer is not JSON');
  }
  const icecast = icecastStatus.safeParse(json);
  if (icecast.success) {
    const { source } = icecast.data.icestats;
    const mount = pickMount(Array.isArray(source) ? source : source ? [source] : [], streamUrl);
    if (!mount)
      return { title: null, artist: null, artworkUrl: null, listeners: 0, onAir: false, startedAtMs: null };
    return {
      ...splitArtistTitle(mount.title, mount.artist),
      artworkUrl: null,
      listeners: mount.listeners,
      onAir: true,
      startedAtMs: null,
    };
  }
  const azura = azuraCastStatus.safeParse(json);
  if (azura.success && azura.data.now_playing) {
    const { song, played_at } = azura.data.now_playing;
    const named = splitArtistTitle(song?.title ?? song?.text ?? null, song?.artist ?? null);
    return {
      ...named,
      artworkUrl: song?.art ?? null,
      listeners: azura.data.listeners?.current ?? 0,
      onAir: azura.data.is_online ?? true,
      startedAtMs: played_at ? played_at * 1000 : null,
    };
  }
  const radioCo = radioCoStatus.safeParse(json);
  if (radioCo.success && (radioCo.data.current_track || radioCo.data.status)) {
    const track = radioCo.data.current_track;
    return {
      ...splitArtistTitle(track?.title ?? null, null),
      artworkUrl: track?.artwork_url ?? null,
      listeners: 0,
      onAir: radioCo.data.status ? radioCo.data.status.toLowerCase() === 'online' : Boolean(track),
      startedAtMs: parseTime(track?.start_time),
    };
  }
  throw new UpstreamStatusError('the status answer is neither Icecast, Radio.co nor AzuraCast status JSON');
}
