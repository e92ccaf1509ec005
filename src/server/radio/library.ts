// Owns: what the AutoDJ can play (LibraryItem), a media folder as a provider, a track's title and subtitles.
// Must not: choose what plays (Programming does) nor touch the database (the library feature hands items in).
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { parseFile } from 'music-metadata';
import { parseVtt, type VttCue } from './vtt.js';

/** Something the AutoDJ can play: an audio file of any format ffmpeg reads, with what is known of it. */
export interface LibraryItem {
  path: string;
  /** The library item's id, when it comes from the library (null for the shipped test transmission). */
  id?: string;
  title?: string;
  artist?: string;
  artworkUrl?: string | null;
  /** Measured EBU R128 integrated loudness (LUFS) and true peak (dBTP); unknown until analysed. */
  loudnessLufs?: number | null;
  truePeakDbtp?: number | null;
  /** Where sound starts and ends, in seconds from the file's start: silence either side is not aired. */
  cueIn?: number | null;
  cueOut?: number | null;
  /** Whole length in seconds, when known. */
  duration?: number | null;
}

/** Lists playable items; the media folder is one provider, uploaded sermon audio can be another. */
export type LibraryProvider = () => Promise<LibraryItem[]>;

/** A folder's audio files by name, played as they are (unmeasured); the station's own is its library. */
export function mediaFolderProvider(dir: string): LibraryProvider {
  return async () => {
    const names = await readdir(dir).catch(() => [] as string[]);
    return names
      .filter((name) => /\.(mp3|m4a|aac|wav|flac|ogg|opus)$/i.test(name))
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({ path: join(dir, name) }));
  };
}

export interface TrackInfo {
  title: string;
  artist: string;
  artworkUrl: string | null;
  /** Subtitle cues by language, from `.LANG.vtt` files beside the media file. */
  cues: Map<string, VttCue[]>;
}

/** Title and artist from the ID3 tags, else from the file name ('Artist - Title.mp3'). */
export async function describeTrack(item: LibraryItem, fallbackArtist: string): Promise<TrackInfo> {
  let title = item.title;
  let artist = item.artist;
  if (!title || !artist) {
    const tags = await parseFile(item.path, { duration: false, skipCovers: true }).catch(() => null);
    title ||= tags?.common.title?.trim() || undefined;
    artist ||= tags?.common.artist?.trim() || undefined;
  }
  if (!title) {
    const name = basename(item.path, extname(item.path)).replace(/[_]+/g, ' ').trim();
    const split = name.split(' - ');
    if (split.length >= 2 && !artist) {
      artist = split[0]!.trim();
      title = split.slice(1).join(' - ').trim();
    } else title = name;
  }
  return {
    title,
    artist: artist || fallbackArtist,
    artworkUrl: item.artworkUrl ?? null,
    cues: await subtitlesBeside(item.path),
  };
}

/** `name.LANG.vtt` files beside `name.mp3`. */
async function subtitlesBeside(mediaPath: string): Promise<Map<string, VttCue[]>> {
  const dir = dirname(mediaPath);
  const stem = basename(mediaPath, extname(mediaPath));
  const cues = new Map<string, VttCue[]>();
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(`${stem}.`) || !name.endsWith('.vtt')) continue;
    const language = name.slice(stem.length + 1, -'.vtt'.length);
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]+)?$/.test(language)) continue;
    const parsed = parseVtt(await readFile(join(dir, name), 'utf8').catch(() => ''));
    if (parsed.length) cues.set(language, parsed);
  }
  return cues;
}
