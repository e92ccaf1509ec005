import { and, desc, eq, gte, inArray, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { subtitles } from '../../db/schema.js';

export type SubtitleRow = typeof subtitles.$inferSelect;
export type NewSubtitleRow = typeof subtitles.$inferInsert;

export function insertLines(db: Database, rows: NewSubtitleRow[]) {
  if (rows.length === 0) return Promise.resolve([] as SubtitleRow[]);
  return db.insert(subtitles).values(rows).returning();
}

export async function languagesSince(db: Database, since: Date) {
  const rows = await db
    .selectDistinct({ language: subtitles.language })
    .from(subtitles)
    .where(gte(subtitles.createdAt, since))
    .orderBy(subtitles.language);
  return rows.map((r) => r.language);
}

/** A language's lines stored since `since`, newest stream-clock second first. */
export function linesSince(db: Database, language: string, since: Date, limit: number) {
  return db
    .select()
    .from(subtitles)
    .where(and(eq(subtitles.language, language), gte(subtitles.createdAt, since)))
    .orderBy(desc(subtitles.timestamp), desc(subtitles.createdAt))
    .limit(limit);
}

export function linesById(db: Database, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as SubtitleRow[]);
  return db.select().from(subtitles).where(inArray(subtitles.id, ids));
}

/** Every line (each language) of the captions these rows came from: same second, same original text. */
export async function deleteCaptions(db: Database, captions: { timestamp: number; originalText: string }[]) {
  if (captions.length === 0) return 0;
  const rows = await db
    .delete(subtitles)
    .where(
      or(
        ...captions.map((c) =>
          and(eq(subtitles.timestamp, c.timestamp), eq(subtitles.originalText, c.originalText)),
        ),
      ),
    )
    .returning({ id: subtitles.id });
  return rows.length;
}

export async function deleteOlderThan(db: Database, before: Date) {
  const rows = await db
    .delete(subtitles)
    .where(lt(subtitles.createdAt, before))
    .returning({ id: subtitles.id });
  return rows.length;
}
