// Owns: what plays next from the playlists: a snapshot of them and the ready library, and its next pick.
// Must not: write playlists (service.ts) nor keep the schedule's state between picks (schedule-rotation.ts).
import { PLAYLIST_DEFAULTS } from '../../../common/playlists.js';
import type { MediaKind } from '../../../common/library.js';
import { whileCatalogueUnchanged } from '../../db/catalogue.js';
import type { LibraryItem } from '../../radio/library.js';
import { playableItem, type Library } from '../library/service.js';
import * as repository from './repository.js';
import {
  pickNext,
  pickPlaylist,
  type PlaylistRules,
  type PlaylistState,
  type Played,
  type Relaxed,
  type RotationItem,
} from './rotation.js';

type Row = repository.PlaylistRow;
type MediaRow = repository.ItemRow['media'];

/** The seconds of an item that air: from its cue-in to its cue-out (silence either side is trimmed). */
export const airedSeconds = (media: MediaRow) => {
  const whole = media.durationSeconds ?? 0;
  return Math.max(0, (media.cueOutSeconds ?? whole) - (media.cueInSeconds ?? 0));
};

export const rotationItem = (media: MediaRow): RotationItem => ({
  mediaId: media.id,
  title: media.title,
  artist: media.artist,
  duration: airedSeconds(media),
  kind: media.kind,
});

export const rulesOf = (row: Row): PlaylistRules => ({
  order: row.order,
  noRepeatTitleMinutes: row.noRepeatTitleMinutes,
  noRepeatArtistMinutes: row.noRepeatArtistMinutes,
  insertKind: row.insertKind,
  insertEverySongs: row.insertEverySongs,
  insertEveryMinutes: row.insertEveryMinutes,
});

/** What the default rotation, and each playlist, remember between picks. Plain JSON: copy it to simulate. */
export interface RotationState {
  /** The default rotation's running weights (smooth weighted round robin), by playlist id. */
  scores: Record<string, number>;
  /** Each playlist's own place (in-order position, shuffle bag, insert counters), by playlist id. */
  playlists: Record<string, PlaylistState>;
  /** Seed of the random numbers shuffles use; it moves on with each pick, so a simulation airs as shown. */
  seed: number;
}

/** What plays next, with all the engine needs to play it. */
export interface NextItem {
  /**
   * The file, its measurements (loudness, true peak, cue points, duration) and tags; `id` is the library
   * item's. The snapshot's own: the same object at every pick of that item, not to be changed.
   */
  item: Readonly<LibraryItem & { id: string; kind: MediaKind }>;
  /** The state to pass to the following call. */
  state: RotationState;
  /** The playlist it comes from; null when it is the whole library (no playlist in the default rotation). */
  playlistId: string | null;
  /** A station identification or jingle inserted by the playlist's rule. */
  insert: boolean;
  /** No-repeat rules that could not be kept for this pick (the playlist is too small for them). */
  relaxed: Relaxed;
}

/** The key under which the whole-library fallback keeps its state. */
export const LIBRARY_ROTATION = 'library';

/** The whole library's rules when no playlist is in rotation: shuffled, the default no-repeat times. */
const LIBRARY_RULES: PlaylistRules = {
  order: 'shuffle',
  noRepeatTitleMinutes: PLAYLIST_DEFAULTS.no_repeat_title_minutes,
  noRepeatArtistMinutes: PLAYLIST_DEFAULTS.no_repeat_artist_minutes,
  insertKind: null,
  insertEverySongs: null,
  insertEveryMinutes: null,
};

/** Random numbers from a 32-bit seed (mulberry32): the same seed gives the same numbers. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return {
    random() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    seed: () => a,
  };
}

interface LoadedPlaylist {
  id: string;
  weight: number;
  inRotation: boolean;
  rules: PlaylistRules;
  items: RotationItem[];
}

/**
 * The playlists and the ready library as they are at one moment, read once: `next` on it is synchronous
 * and reads nothing, so the 24-hour preview can call it thousands of times.
 */
export class RotationSnapshot {
  private readonly playlists = new Map<string, LoadedPlaylist>();
  private readonly media = new Map<string, MediaRow>();
  /** Each item as the engine plays it, made at its first pick (a 24-hour preview picks hundreds). */
  private readonly playable = new Map<string, NextItem['item']>();
  private readonly inserts = new Map<string, RotationItem[]>();
  private readonly rotation: LoadedPlaylist[];
  private readonly library: LoadedPlaylist;

  constructor(
    private readonly folders: Library['folders'],
    rows: Row[],
    items: repository.ItemRow[],
    /** Ready items of the insert kinds, and all ready items when no playlist is in rotation. */
    extra: MediaRow[],
  ) {
    for (const row of rows)
      this.playlists.set(row.id, {
        id: row.id,
        weight: row.weight,
        inRotation: row.inRotation,
        rules: rulesOf(row),
        items: [],
      });
    for (const { playlistId, media } of items) {
      this.media.set(media.id, media);
      this.playlists.get(playlistId)?.items.push(rotationItem(media));
    }
    for (const media of extra) this.media.set(media.id, media);
    for (const kind of ['station_id', 'jingle'])
      this.inserts.set(kind, extra.filter((media) => media.kind === kind).map(rotationItem));
    this.rotation = [...this.playlists.values()].filter((p) => p.inRotation && p.items.length > 0);
    const songs = extra.filter((media) => media.kind !== 'station_id' && media.kind !== 'jingle');
    this.library = {
      id: LIBRARY_ROTATION,
      weight: 1,
      inRotation: true,
      rules: LIBRARY_RULES,
      items: (songs.length ? songs : extra).map(rotationItem),
    };
  }

  /** Whether a playlist of this id exists (it may still have nothing ready to play). */
  exists(id: string): boolean {
    return this.playlists.has(id);
  }

  /** True when the default rotation plays the whole library because no playlist in it has anything ready. */
  get playsWholeLibrary(): boolean {
    return this.rotation.length === 0;
  }

  /**
   * What plays at `at` (epoch ms): from the playlist `playlistId`, or, for null, from the default rotation
   * (its playlists by weight, else the whole library). `history` is what aired before `at` (for the
   * no-repeat rules; a few hours is enough), `state` what the previous call returned. Reads nothing and
   * changes nothing: pass copies to simulate. Null when the playlist is unknown or has nothing ready (the
   * caller then plays the default rotation), or, for the default rotation, when nothing in the library is ready.
   */
  next(playlistId: string | null, at: number, history: Played[], state?: RotationState): NextItem | null {
    const numbers = seeded(state?.seed ?? at % 2 ** 32);
    const scores = state?.scores ?? {};
    let playlist: LoadedPlaylist | undefined;
    let nextScores = scores;
    if (playlistId !== null) playlist = this.playlists.get(playlistId);
    else if (this.rotation.length) {
      const chosen = pickPlaylist(this.rotation, scores, numbers.random)!;
      playlist = this.playlists.get(chosen.id);
      nextScores = chosen.scores;
    } else playlist = this.library;
    if (!playlist) return null;
    const pick = pickNext({
      playlist: playlist.rules,
      items: playlist.items,
      inserts: (playlist.rules.insertKind && this.inserts.get(playlist.rules.insertKind)) || [],
      history,
      state: state?.playlists[playlist.id],
      now: at,
      random: numbers.random,
    });
    if (!pick) return null;
    return {
      item: this.playableOf(pick.item.mediaId),
      state: {
        scores: nextScores,
        playlists: { ...state?.playlists, [playlist.id]: pick.state },
        seed: numbers.seed(),
      },
      playlistId: playlist === this.library ? null : playlist.id,
      insert: pick.insert,
      relaxed: pick.relaxed,
    };
  }

  private playableOf(mediaId: string): NextItem['item'] {
    let item = this.playable.get(mediaId);
    if (!item) {
      const media = this.media.get(mediaId)!;
      this.playable.set(mediaId, (item = { ...playableItem(this.folders, media), kind: media.kind }));
    }
    return item;
  }
}

/** What the schedule and the engine ask of the playlists. */
export interface Playlists {
  /** The playlists and ready library now (three small reads), for many `next` calls with no further reads. */
  snapshot(): Promise<RotationSnapshot>;
  /** `snapshot()` then its `next`: what plays at `at` from a playlist (null: the default rotation). */
  next(
    playlistId: string | null,
    at: number,
    history: Played[],
    state?: RotationState,
  ): Promise<NextItem | null>;
  /** Whether a playlist of this id exists. */
  exists(id: string): Promise<boolean>;
}

/**
 * The playlists' surface for the schedule: a snapshot is read again whenever the library or the playlists
 * changed (db/catalogue.ts), so it is never stale, and only then (reading them is most of a 24-hour plan).
 */
export function openPlaylists(library: Pick<Library, 'db' | 'folders'>): Playlists {
  const { db, folders } = library;
  const snapshot = whileCatalogueUnchanged(db, async () => {
    const [rows, items] = await Promise.all([repository.allPlaylists(db), repository.readyItemRows(db)]);
    const filled = new Set(items.map((item) => item.playlistId));
    const wholeLibrary = !rows.some((row) => row.inRotation && filled.has(row.id));
    const insertKinds = [...new Set(rows.flatMap((row) => (row.insertKind ? [row.insertKind] : [])))];
    const extra = await repository.readyMedia(db, wholeLibrary ? undefined : insertKinds);
    return new RotationSnapshot(folders, rows, items, extra);
  });
  return {
    snapshot,
    async next(playlistId, at, history, state) {
      return (await snapshot()).next(playlistId, at, history, state);
    },
    async exists(id) {
      return (await repository.playlistById(db, id)) !== undefined;
    },
  };
}
