import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { audioClips } from '../../db/schema.js';

export type ClipRow = typeof audioClips.$inferSelect;
export type ClipValues = typeof audioClips.$inferInsert;

export async function insertClip(db: Database, values: ClipValues): Promise<ClipRow> {
  const [row] = await db.insert(audioClips).values(values).returning();
  return row!;
}

export async function clipById(db: Database, id: string): Promise<ClipRow | undefined> {
  const [row] = await db.select().from(audioClips).where(eq(audioClips.id, id)).limit(1);
  return row;
}

export async function incrementDownloads(db: Database, id: string): Promise<void> {
  await db
    .update(audioClips)
    .set({ downloadCount: sql`${audioClips.downloadCount} + 1` })
    .where(eq(audioClips.id, id));
}

export async function incrementShares(db: Database, id: string): Promise<number | undefined> {
  const [row] = await db
    .update(audioClips)
    .set({ shareCount: sql`${audioClips.shareCount} + 1` })
    .where(eq(audioClips.id, id))
    .returning({ shareCount: audioClips.shareCount });
  return row?.shareCount;
}
