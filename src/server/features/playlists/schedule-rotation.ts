// Owns: the playlists as the schedule's rotation: its state between picks, recent plays, snapshots reused.
// Must not: pick itself (RotationSnapshot does) nor read the database but through a snapshot.
import type { Played, Relaxed } from './rotation.js';
import type { Playlists, RotationSnapshot, RotationState } from './rotation-snapshot.js';

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
      // Oldest first: what fell out of the window is cut from the front, and the pick added at the end.
      const kept = state.recent.findIndex((played) => played.at > at - RECENT_MS);
      const recent = (kept > 0 ? state.recent.slice(kept) : kept < 0 ? [] : state.recent).concat({
        mediaId: item.id,
        title: item.title ?? '',
        artist: item.artist ?? '',
        at,
      });
      return { item, state: { rotation: next.state, recent }, relaxed: relaxedMessage(next.relaxed) };
    },
  };
}
