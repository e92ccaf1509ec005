// Owns: the Playlists tab's playlists (list, read, create, update, delete, items) and the surface others use.
// Must not: pick what plays here (rotation-snapshot.ts, schedule-rotation.ts) nor reach into another feature.
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
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';
import { rulesWarning } from './rotation.js';
import { airedSeconds, rotationItem, rulesOf } from './rotation-snapshot.js';

export type { Played, PlaylistState, Relaxed, RotationItem } from './rotation.js';
export {
  LIBRARY_ROTATION,
  openPlaylists,
  RotationSnapshot,
  type NextItem,
  type Playlists,
  type RotationState,
} from './rotation-snapshot.js';
export { playlistRotation, relaxedMessage, type ScheduleRotationState } from './schedule-rotation.js';

type Row = repository.PlaylistRow;
type MediaRow = repository.ItemRow['media'];

// --- The Playlists tab -------------------------------------------------------------------------

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
