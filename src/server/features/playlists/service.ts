import type { MediaKind } from '../../../common/library.js';
import {
  insertRuleProblem,
  mediaInPlaylist,
  PLAYLIST_DEFAULTS,
  type InsertKind,
  type Playlist,
  type PlaylistCreate,
  type PlaylistDetail,
  type PlaylistSettings,
  type PlaylistUpdate,
} from '../../../common/playlists.js';
import { whileCatalogueUnchanged } from '../../db/catalogue.js';
import type { Database } from '../../db/client.js';
import type { LibraryItem } from '../../radio/library.js';
import { playableItem, type Library } from '../library/service.js';
import * as repository from './repository.js';
import {
  pickNext,
  pickPlaylist,
  rulesWarning,
  type PlaylistRules,
  type PlaylistState,
  type Played,
  type Relaxed,
  type RotationItem,
} from './rotation.js';

export type { Played, PlaylistState, Relaxed, RotationItem } from './rotation.js';

type Row = repository.PlaylistRow;
type MediaRow = repository.ItemRow['media'];

// --- The Playlists tab -------------------------------------------------------------------------

/** The seconds of an item that air: from its cue-in to its cue-out (silence either side is trimmed). */
const airedSeconds = (media: MediaRow) => {
  const whole = media.durationSeconds ?? 0;
  return Math.max(0, (media.cueOutSeconds ?? whole) - (media.cueInSeconds ?? 0));
};

const rotationItem = (media: MediaRow): RotationItem => ({
  mediaId: media.id,
  title: media.title,
  artist: media.artist,
  duration: airedSeconds(media),
  kind: media.kind,
});

const rulesOf = (row: Row): PlaylistRules => ({
  order: row.order,
  noRepeatTitleMinutes: row.noRepeatTitleMinutes,
  noRepeatArtistMinutes: row.noRepeatArtistMinutes,
  insertKind: row.insertKind,
  insertEverySongs: row.insertEverySongs,
  insertEveryMinutes: row.insertEveryMinutes,
});

const INSERT_NAMES: Record<InsertKind, string> = { station_id: 'station identification', jingle: 'jingle' };

/** What keeps a playlist from playing as set, for staff: nothing to play, no insert to insert, rules too tight. */
function warningFor(row: Row, media: MediaRow[], readyInserts: Set<string>): string | null {
  const ready = media.filter((item) => item.status === 'ready');
  if (media.length === 0) return 'This playlist is empty: add items from the library.';
  if (ready.length === 0)
    return 'None of these items has finished its analysis yet: the playlist plays nothing until one has.';
  if (row.insertKind && !readyInserts.has(row.insertKind))
    return (
      `No ${INSERT_NAMES[row.insertKind]} is ready in the library, so none is inserted. Upload one in the ` +
      `Library tab and set its kind to '${row.insertKind === 'jingle' ? 'Jingle' : 'Station identification'}'.`
    );
  return rulesWarning(rulesOf(row), ready.map(rotationItem));
}

function toPlaylist(row: Row, media: MediaRow[], readyInserts: Set<string>): Playlist {
  const ready = media.filter((item) => item.status === 'ready');
  return {
    id: row.id,
    name: row.name,
    order: row.order,
    in_rotation: row.inRotation,
    weight: row.weight,
    insert_kind: row.insertKind,
    insert_every_songs: row.insertEverySongs,
    insert_every_minutes: row.insertEveryMinutes,
    no_repeat_title_minutes: row.noRepeatTitleMinutes,
    no_repeat_artist_minutes: row.noRepeatArtistMinutes,
    item_count: media.length,
    ready_count: ready.length,
    duration_seconds: ready.reduce((sum, item) => sum + airedSeconds(item), 0),
    warning: warningFor(row, media, readyInserts),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Which insert kinds have a ready item in the library. */
async function readyInsertKinds(db: Database): Promise<Set<string>> {
  const rows = await repository.readyMedia(db, ['station_id', 'jingle']);
  return new Set(rows.map((row) => row.kind));
}

export async function listPlaylists(db: Database): Promise<Playlist[]> {
  const [rows, items, inserts] = await Promise.all([
    repository.allPlaylists(db),
    repository.itemRows(db),
    readyInsertKinds(db),
  ]);
  const byPlaylist = new Map<string, MediaRow[]>();
  for (const item of items)
    byPlaylist.set(item.playlistId, [...(byPlaylist.get(item.playlistId) ?? []), item.media]);
  return rows.map((row) => toPlaylist(row, byPlaylist.get(row.id) ?? [], inserts));
}

export async function getPlaylist(db: Database, id: string): Promise<PlaylistDetail | undefined> {
  const [row, items, inserts] = await Promise.all([
    repository.playlistById(db, id),
    repository.itemRows(db, id),
    readyInsertKinds(db),
  ]);
  if (!row) return undefined;
  const media = items.map((item) => item.media);
  return {
    ...toPlaylist(row, media, inserts),
    items: media.map((item) => ({
      media_id: item.id,
      title: item.title,
      artist: item.artist,
      kind: item.kind,
      status: item.status,
      duration_seconds: item.durationSeconds,
    })),
  };
}

const columnsOf = (settings: Partial<PlaylistSettings>): Partial<repository.PlaylistValues> => {
  const columns: Partial<repository.PlaylistValues> = {
    name: settings.name,
    order: settings.order,
    inRotation: settings.in_rotation,
    weight: settings.weight,
    insertKind: settings.insert_kind,
    insertEverySongs: settings.insert_every_songs,
    insertEveryMinutes: settings.insert_every_minutes,
    noRepeatTitleMinutes: settings.no_repeat_title_minutes,
    noRepeatArtistMinutes: settings.no_repeat_artist_minutes,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
};

const settingsOf = (row: Row): PlaylistSettings => ({
  name: row.name,
  order: row.order,
  in_rotation: row.inRotation,
  weight: row.weight,
  insert_kind: row.insertKind,
  insert_every_songs: row.insertEverySongs,
  insert_every_minutes: row.insertEveryMinutes,
  no_repeat_title_minutes: row.noRepeatTitleMinutes,
  no_repeat_artist_minutes: row.noRepeatArtistMinutes,
});

export type Saved =
  | { outcome: 'saved'; playlist: PlaylistDetail }
  | { outcome: 'not-found' }
  | { outcome: 'name-taken'; name: string }
  | { outcome: 'invalid'; message: string };

/** PostgreSQL's unique_violation: a name taken between our check and the write. */
const isUniqueViolation = (error: unknown): boolean =>
  !!error &&
  typeof error === 'object' &&
  ((error as { code?: unknown }).code === '23505' || isUniqueViolation((error as { cause?: unknown }).cause));

export async function createPlaylist(db: Database, body: PlaylistCreate & { name: string }): Promise<Saved> {
  const settings = { ...PLAYLIST_DEFAULTS, ...body } as PlaylistSettings;
  const problem = insertRuleProblem(settings);
  if (problem) return { outcome: 'invalid', message: problem };
  if (await repository.playlistNamed(db, settings.name))
    return { outcome: 'name-taken', name: settings.name };
  try {
    const row = await repository.insertPlaylist(db, columnsOf(settings) as repository.PlaylistValues);
    return { outcome: 'saved', playlist: (await getPlaylist(db, row.id))! };
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: 'name-taken', name: settings.name };
    throw error;
  }
}

export async function updatePlaylist(db: Database, id: string, update: PlaylistUpdate): Promise<Saved> {
  const row = await repository.playlistById(db, id);
  if (!row) return { outcome: 'not-found' };
  const settings = { ...settingsOf(row), ...(update as Partial<PlaylistSettings>) };
  const problem = insertRuleProblem(settings);
  if (problem) return { outcome: 'invalid', message: problem };
  if (update.name !== undefined && (await repository.playlistNamed(db, settings.name, id)))
    return { outcome: 'name-taken', name: settings.name };
  try {
    const columns = columnsOf(update as Partial<PlaylistSettings>);
    if (Object.keys(columns).length && !(await repository.updatePlaylist(db, id, columns)))
      return { outcome: 'not-found' };
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: 'name-taken', name: settings.name };
    throw error;
  }
  const saved = await getPlaylist(db, id);
  return saved ? { outcome: 'saved', playlist: saved } : { outcome: 'not-found' };
}

/** Why a playlist cannot be deleted now (a programme plays it), in words for staff; undefined when free. */
export type PlaylistInUseCheck = (playlistId: string) => Promise<string | undefined>;

export async function deletePlaylist(
  db: Database,
  id: string,
  inUse: PlaylistInUseCheck[] = [],
): Promise<{ outcome: 'removed' | 'not-found' } | { outcome: 'in-use'; message: string }> {
  if (!(await repository.playlistById(db, id))) return { outcome: 'not-found' };
  for (const check of inUse) {
    const message = await check(id);
    if (message) return { outcome: 'in-use', message };
  }
  return { outcome: (await repository.deletePlaylist(db, id)) ? 'removed' : 'not-found' };
}

/** Sets a playlist's items in playing order; nothing changes when the playlist or an item is not there. */
export async function setPlaylistItems(
  db: Database,
  id: string,
  mediaIds: string[],
): Promise<Saved | { outcome: 'unknown-media'; missing: number }> {
  const replaced = await repository.replaceItems(db, id, mediaIds);
  if (replaced.outcome === 'no-playlist') return { outcome: 'not-found' };
  if (replaced.outcome === 'unknown-media') return replaced;
  const playlist = await getPlaylist(db, id);
  return playlist ? { outcome: 'saved', playlist } : { outcome: 'not-found' };
}

/**
 * For the library (handed to it by app.ts): an item a playlist holds is not deleted, or the playlist would
 * silently lose it. Says which playlist, so staff know where to remove it.
 */
export function playlistHoldingMedia(db: Database) {
  return async (mediaId: string) => {
    const name = await repository.playlistHolding(db, mediaId);
    return name === undefined ? undefined : mediaInPlaylist(name);
  };
}

// --- What plays next: the surface the schedule uses ----------------------------------------------

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
  /** The file, its measurements (loudness, true peak, cue points, duration) and tags; `id` is the library item's. */
  item: LibraryItem & { id: string; kind: MediaKind };
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
    const media = this.media.get(pick.item.mediaId)!;
    return {
      item: { ...playableItem(this.folders, media), kind: media.kind },
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

// --- The schedule's rotation ---------------------------------------------------------------------

/** What the schedule carries between picks: the playlists' state and what they picked lately (for no-repeat). */
export interface ScheduleRotationState {
  rotation: RotationState | null;
  recent: Played[];
}

/** How long a snapshot serves before the playlists are read again, and how much of the past is kept. */
const SNAPSHOT_FRESH_MS = 2000;
const RECENT_MS = 6 * 3_600_000;

/** The rules that could not be kept for a pick, as the 24-hour view flags them; null when all were kept. */
export function relaxedMessage(relaxed: Relaxed): string | null {
  if (relaxed.includes('title'))
    return 'A title repeats sooner than its playlist allows: the playlist has too few songs for its rules.';
  if (relaxed.includes('artist'))
    return 'An artist repeats sooner than its playlist allows: the playlist has too few other artists.';
  return null;
}

/**
 * The playlists as the schedule's rotation (features/on-air's `Rotation`): `pick(playlistId | null, at,
 * state, items)` answers the next item of the playlist (null: the default rotation) from `items` (the
 * ready library by id, as the schedule read it). The state is plain JSON: the preview passes a copy.
 * Snapshots of the playlists are reused for two seconds, so a 24-hour preview reads the database once.
 */
export function playlistRotation(playlists: Playlists, now: () => number = Date.now) {
  let cached: { at: number; snapshot: Promise<RotationSnapshot> } | undefined;
  const snapshot = () => {
    if (!cached || now() - cached.at > SNAPSHOT_FRESH_MS) {
      const read = playlists.snapshot();
      cached = { at: now(), snapshot: read };
      read.catch(() => (cached = undefined));
    }
    return cached.snapshot;
  };
  const initial: ScheduleRotationState = { rotation: null, recent: [] };
  return {
    initial,
    async pick<T extends { id: string; title?: string; artist?: string }>(
      playlistId: string | null,
      at: number,
      state: ScheduleRotationState,
      items: Map<string, T>,
    ): Promise<{ item: T; state: ScheduleRotationState; relaxed: string | null } | null> {
      const next = (await snapshot()).next(playlistId, at, state.recent, state.rotation ?? undefined);
      const item = next && items.get(next.item.id);
      if (!next || !item) return null;
      const recent = [
        ...state.recent.filter((played) => played.at > at - RECENT_MS),
        { mediaId: item.id, title: item.title ?? '', artist: item.artist ?? '', at },
      ];
      return { item, state: { rotation: next.state, recent }, relaxed: relaxedMessage(next.relaxed) };
    },
  };
}
