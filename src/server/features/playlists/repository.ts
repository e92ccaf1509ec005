import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mediaItems, playlistItems, playlists } from '../../db/schema.js';

export type PlaylistRow = typeof playlists.$inferSelect;
export type PlaylistValues = typeof playlists.$inferInsert;
type MediaRow = typeof mediaItems.$inferSelect;

/** A playlist's item with the library row it names. */
export interface ItemRow {
  playlistId: string;
  position: number;
  media: MediaRow;
}

export function allPlaylists(db: Database): Promise<PlaylistRow[]> {
  return db
    .select()
    .from(playlists)
    .orderBy(asc(sql`lower(${playlists.name})`), asc(playlists.id));
}

export async function playlistById(db: Database, id: string): Promise<PlaylistRow | undefined> {
  const [row] = await db.select().from(playlists).where(eq(playlists.id, id)).limit(1);
  return row;
}

/** The playlist already called `name` (case aside), other than `except`. */
export async function playlistNamed(db: Database, name: string, except?: string) {
  const [row] = await db
    .select({ id: playlists.id })
    .from(playlists)
    .where(
      and(
        eq(sql`lower(${playlists.name})`, name.toLowerCase()),
        except ? ne(playlists.id, except) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function insertPlaylist(db: Database, values: PlaylistValues): Promise<PlaylistRow> {
  const [row] = await db.insert(playlists).values(values).returning();
  return row!;
}

export async function updatePlaylist(db: Database, id: string, values: Partial<PlaylistValues>) {
  const [row] = await db
    .update(playlists)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(playlists.id, id))
    .returning();
  return row;
}

export async function deletePlaylist(db: Database, id: string): Promise<boolean> {
  const rows = await db.delete(playlists).where(eq(playlists.id, id)).returning({ id: playlists.id });
  return rows.length > 0;
}

/** Items of one playlist, or of every playlist, in playing order, with their library rows. */
export function itemRows(db: Database, playlistId?: string): Promise<ItemRow[]> {
  return db
    .select({ playlistId: playlistItems.playlistId, position: playlistItems.position, media: mediaItems })
    .from(playlistItems)
    .innerJoin(mediaItems, eq(mediaItems.id, playlistItems.mediaItemId))
    .where(playlistId ? eq(playlistItems.playlistId, playlistId) : undefined)
    .orderBy(asc(playlistItems.playlistId), asc(playlistItems.position));
}

/** Ready items of every playlist, in playing order. */
export function readyItemRows(db: Database): Promise<ItemRow[]> {
  return db
    .select({ playlistId: playlistItems.playlistId, position: playlistItems.position, media: mediaItems })
    .from(playlistItems)
    .innerJoin(mediaItems, eq(mediaItems.id, playlistItems.mediaItemId))
    .where(eq(mediaItems.status, 'ready'))
    .orderBy(asc(playlistItems.playlistId), asc(playlistItems.position));
}

/** Ready library items of the given kinds (all kinds when `kinds` is undefined), oldest first. */
export function readyMedia(db: Database, kinds?: string[]): Promise<MediaRow[]> {
  if (kinds && kinds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(mediaItems)
    .where(
      and(
        eq(mediaItems.status, 'ready'),
        kinds ? inArray(mediaItems.kind, kinds as MediaRow['kind'][]) : undefined,
      ),
    )
    .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id));
}

/** Replaces a playlist's items in one transaction; nothing changes when the playlist or an item is gone. */
export async function replaceItems(
  db: Database,
  id: string,
  mediaIds: string[],
): Promise<{ outcome: 'replaced' | 'no-playlist' } | { outcome: 'unknown-media'; missing: number }> {
  return db.transaction(async (tx) => {
    const [playlist] = await tx
      .select({ id: playlists.id })
      .from(playlists)
      .where(eq(playlists.id, id))
      .for('update');
    if (!playlist) return { outcome: 'no-playlist' as const };
    // Held until the end: an item deleted meanwhile waits for this, then finds itself in use.
    if (mediaIds.length) {
      const found = await tx
        .select({ id: mediaItems.id })
        .from(mediaItems)
        .where(inArray(mediaItems.id, mediaIds))
        .for('share');
      if (found.length !== mediaIds.length)
        return { outcome: 'unknown-media' as const, missing: mediaIds.length - found.length };
    }
    await tx.update(playlists).set({ updatedAt: new Date() }).where(eq(playlists.id, id));
    await tx.delete(playlistItems).where(eq(playlistItems.playlistId, id));
    if (mediaIds.length)
      await tx
        .insert(playlistItems)
        .values(mediaIds.map((mediaItemId, position) => ({ playlistId: id, mediaItemId, position })));
    return { outcome: 'replaced' as const };
  });
}

/** The name of a playlist holding the library item, if any. */
export async function playlistHolding(db: Database, mediaId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ name: playlists.name })
    .from(playlistItems)
    .innerJoin(playlists, eq(playlists.id, playlistItems.playlistId))
    .where(eq(playlistItems.mediaItemId, mediaId))
    .orderBy(asc(playlists.name))
    .limit(1);
  return row?.name;
}
