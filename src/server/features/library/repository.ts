import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import type { MediaKind, MediaStatus } from '../../../common/library.js';
import type { Database } from '../../db/client.js';
import { mediaItems } from '../../db/schema.js';

export type MediaRow = typeof mediaItems.$inferSelect;
export type MediaValues = typeof mediaItems.$inferInsert;

/** `text` as a LIKE pattern matching itself anywhere: its own % _ and \ are taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listRows(
  db: Database,
  query: { search?: string; kind?: MediaKind; offset: number; limit: number },
) {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = containing(query.search);
    conditions.push(
      or(
        ilike(mediaItems.title, pattern),
        ilike(mediaItems.artist, pattern),
        ilike(mediaItems.album, pattern),
      )!,
    );
  }
  if (query.kind) conditions.push(eq(mediaItems.kind, query.kind));
  const where = and(...conditions);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(mediaItems)
      .where(where)
      .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id))
      .offset(query.offset)
      .limit(query.limit),
    db.select({ total: count() }).from(mediaItems).where(where),
  ]);
  return { rows, total };
}

export async function rowById(db: Database, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.select().from(mediaItems).where(eq(mediaItems.id, id)).limit(1);
  return row;
}

export async function rowsByIds(db: Database, ids: string[]): Promise<MediaRow[]> {
  if (!ids.length) return [];
  return db.select().from(mediaItems).where(inArray(mediaItems.id, ids));
}

export async function insertRow(db: Database, values: MediaValues): Promise<MediaRow> {
  const [row] = await db.insert(mediaItems).values(values).returning();
  return row!;
}

/** Inserts unless an item already has this file; undefined then. */
export async function insertRowIfNew(db: Database, values: MediaValues): Promise<MediaRow | undefined> {
  const [row] = await db
    .insert(mediaItems)
    .values(values)
    .onConflictDoNothing({ target: mediaItems.path })
    .returning();
  return row;
}

export async function updateRow(db: Database, id: string, values: Partial<MediaValues>) {
  const [row] = await db.update(mediaItems).set(values).where(eq(mediaItems.id, id)).returning();
  return row;
}

/** Records what analysis found, unless the item was deleted (or already measured) meanwhile. */
export async function finishAnalysis(db: Database, id: string, values: Partial<MediaValues>) {
  await db
    .update(mediaItems)
    .set(values)
    .where(and(eq(mediaItems.id, id), eq(mediaItems.status, 'analysing')));
}

export async function deleteRow(db: Database, id: string): Promise<MediaRow | undefined> {
  const [row] = await db.delete(mediaItems).where(eq(mediaItems.id, id)).returning();
  return row;
}

/** Items in one state, oldest first (the order they came in). */
export function rowsWithStatus(db: Database, status: MediaStatus) {
  return db
    .select()
    .from(mediaItems)
    .where(eq(mediaItems.status, status))
    .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id));
}

export async function storedPaths(db: Database): Promise<Set<string>> {
  const rows = await db.select({ path: mediaItems.path }).from(mediaItems);
  return new Set(rows.map((row) => row.path));
}

/** Whether an item (other than `exceptId`, when given) shows this artwork. */
export async function rowWithArtwork(db: Database, url: string, exceptId?: string) {
  const shows = eq(mediaItems.artworkUrl, url);
  const [row] = await db
    .select({ id: mediaItems.id })
    .from(mediaItems)
    .where(exceptId === undefined ? shows : and(shows, ne(mediaItems.id, exceptId)))
    .limit(1);
  return !!row;
}

/** Sets the same values on every item of `ids` in one transaction, or on none when some are gone. */
export async function updateRows(
  db: Database,
  ids: string[],
  values: Partial<MediaValues>,
): Promise<{ updated: number } | { missing: number }> {
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: mediaItems.id })
      .from(mediaItems)
      .where(inArray(mediaItems.id, ids))
      .for('update');
    if (found.length !== ids.length) return { missing: ids.length - found.length };
    await tx.update(mediaItems).set(values).where(inArray(mediaItems.id, ids));
    return { updated: ids.length };
  });
}
