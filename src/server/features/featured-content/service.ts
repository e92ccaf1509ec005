import { and, desc, eq, sql } from 'drizzle-orm';
import type { FeaturedItem } from '../../../common/featured-content.js';
import type { Database } from '../../db/client.js';
import { featuredContent } from '../../db/schema.js';

type Row = typeof featuredContent.$inferSelect;

export interface FeaturedContentInput {
  title: string;
  description: string;
  type: string;
  imageUrl?: string | null;
  audioUrl?: string | null;
  speaker?: string | null;
  duration?: string | null;
}

export const CONTENT_NOT_FOUND = 'Featured content not found';

const toItem = (row: Row): FeaturedItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  description: row.description,
  imageUrl: row.imageUrl,
  audioUrl: row.audioUrl,
  duration: row.duration,
  playCount: row.playCount,
  speaker: row.speaker,
});

const isActive = eq(featuredContent.isActive, 'true');

/** SPEC.md section 7: the listener's featured list, newest first. */
export async function listActiveContent(db: Database) {
  const rows = await db
    .select()
    .from(featuredContent)
    .where(isActive)
    .orderBy(desc(featuredContent.createdAt), desc(featuredContent.id));
  return rows.map(toItem);
}

/** Only the fields the caller sent: on PUT a field left out keeps its stored value. */
const definedFields = (input: FeaturedContentInput) =>
  Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as FeaturedContentInput;

export async function addContent(db: Database, input: FeaturedContentInput) {
  const [row] = await db.insert(featuredContent).values(definedFields(input)).returning();
  return toItem(row!);
}

export async function updateContent(db: Database, id: string, input: FeaturedContentInput) {
  const [row] = await db
    .update(featuredContent)
    .set(definedFields(input))
    .where(and(eq(featuredContent.id, id), isActive))
    .returning();
  return row ? toItem(row) : undefined;
}

/** Deleting hides the item (isActive 'false') and keeps its play count; it no longer appears anywhere. */
export async function removeContent(db: Database, id: string) {
  const [row] = await db
    .update(featuredContent)
    .set({ isActive: 'false' })
    .where(and(eq(featuredContent.id, id), isActive))
    .returning({ id: featuredContent.id });
  return Boolean(row);
}

export async function countPlay(db: Database, id: string) {
  const [row] = await db
    .update(featuredContent)
    .set({ playCount: sql`${featuredContent.playCount} + 1` })
    .where(and(eq(featuredContent.id, id), isActive))
    .returning({ playCount: featuredContent.playCount });
  return row?.playCount;
}

export async function playCountOf(db: Database, id: string) {
  const [row] = await db
    .select({ playCount: featuredContent.playCount })
    .from(featuredContent)
    .where(and(eq(featuredContent.id, id), isActive));
  return row?.playCount;
}
