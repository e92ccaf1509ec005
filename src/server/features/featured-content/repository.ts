import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { featuredContent } from '../../db/schema.js';

export type FeaturedRow = typeof featuredContent.$inferSelect;
export type FeaturedValues = typeof featuredContent.$inferInsert;

const isActive = eq(featuredContent.isActive, 'true');

export function activeRowsNewestFirst(db: Database) {
  return db
    .select()
    .from(featuredContent)
    .where(isActive)
    .orderBy(desc(featuredContent.createdAt), desc(featuredContent.id));
}

export async function insertRows(db: Database, values: FeaturedValues[]) {
  return db.insert(featuredContent).values(values).returning();
}

export async function activeRowById(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(featuredContent)
    .where(and(eq(featuredContent.id, id), isActive));
  return row;
}

export async function updateActiveRow(db: Database, id: string, values: Partial<FeaturedValues>) {
  const [row] = await db
    .update(featuredContent)
    .set(values)
    .where(and(eq(featuredContent.id, id), isActive))
    .returning();
  return row;
}

const isSample = and(isActive, eq(featuredContent.sample, true));

export async function countSampleRows(db: Database) {
  const [row] = await db.select({ n: count() }).from(featuredContent).where(isSample);
  return row?.n ?? 0;
}

/** Marks as sample the shown items equal to one of these, with no picture or audio added. */
export async function markSampleRows(
  db: Database,
  values: Pick<FeaturedValues, 'type' | 'title' | 'speaker' | 'description'>[],
) {
  let marked = 0;
  for (const v of values) {
    const rows = await db
      .update(featuredContent)
      .set({ sample: true })
      .where(
        and(
          isActive,
          eq(featuredContent.type, v.type),
          eq(featuredContent.title, v.title),
          v.speaker ? eq(featuredContent.speaker, v.speaker) : isNull(featuredContent.speaker),
          eq(featuredContent.description, v.description),
          isNull(featuredContent.imageUrl),
          isNull(featuredContent.audioUrl),
          isNull(featuredContent.duration),
        ),
      )
      .returning({ id: featuredContent.id });
    marked += rows.length;
  }
  return marked;
}

/** Deletes the sample items outright: they carry no audio, so no play count or file goes with them. */
export async function deleteSampleRows(db: Database) {
  const rows = await db.delete(featuredContent).where(isSample).returning({ id: featuredContent.id });
  return rows.length;
}

/** Counts a play of an active item that has audio; undefined when there is no such item. */
export async function incrementPlayCount(db: Database, id: string) {
  const [row] = await db
    .update(featuredContent)
    .set({ playCount: sql`${featuredContent.playCount} + 1` })
    .where(and(eq(featuredContent.id, id), isActive, isNotNull(featuredContent.audioUrl)))
    .returning({ playCount: featuredContent.playCount });
  return row?.playCount;
}

export async function activePlayState(db: Database, id: string) {
  const [row] = await db
    .select({ playCount: featuredContent.playCount, audioUrl: featuredContent.audioUrl })
    .from(featuredContent)
    .where(and(eq(featuredContent.id, id), isActive));
  return row;
}

/** Whether any featured row, shown or deleted, names this picture. */
export async function anyRowWithImage(db: Database, url: string) {
  const [row] = await db
    .select({ id: featuredContent.id })
    .from(featuredContent)
    .where(eq(featuredContent.imageUrl, url))
    .limit(1);
  return !!row;
}

/** The first active item whose audio is one of `urls`, if any. */
export async function activeRowWithAudio(db: Database, urls: string[]) {
  const [row] = await db
    .select({ id: featuredContent.id, title: featuredContent.title })
    .from(featuredContent)
    .where(and(isActive, inArray(featuredContent.audioUrl, urls)))
    .limit(1);
  return row;
}
