import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mediaItems, transcripts } from '../../db/schema.js';
import type { TranscriptCue } from './vtt-file.js';

export type TranscriptRow = typeof transcripts.$inferSelect;

export async function transcriptOf(db: Database, mediaItemId: string): Promise<TranscriptRow | undefined> {
  const [row] = await db.select().from(transcripts).where(eq(transcripts.mediaItemId, mediaItemId));
  return row;
}

/** The next ready library item of these kinds with no transcript yet (oldest first), with its path. */
type Kind = (typeof mediaItems.$inferSelect)['kind'];

export async function nextUntranscribed(db: Database, kinds: readonly Kind[]) {
  const [row] = await db
    .select({ id: mediaItems.id, path: mediaItems.path })
    .from(mediaItems)
    .leftJoin(transcripts, eq(transcripts.mediaItemId, mediaItems.id))
    .where(
      and(
        eq(mediaItems.status, 'ready'),
        inArray(mediaItems.kind, [...kinds]),
        isNull(transcripts.mediaItemId),
      ),
    )
    .orderBy(mediaItems.createdAt)
    .limit(1);
  return row;
}

export async function mediaPath(db: Database, id: string): Promise<string | undefined> {
  const [row] = await db.select({ path: mediaItems.path }).from(mediaItems).where(eq(mediaItems.id, id));
  return row?.path;
}

export async function startTranscript(db: Database, mediaItemId: string, engine: string) {
  await db
    .insert(transcripts)
    .values({ mediaItemId, status: 'working', engine })
    .onConflictDoUpdate({
      target: transcripts.mediaItemId,
      set: { status: 'working', engine, error: null, updatedAt: new Date() },
    });
}

export async function finishTranscript(db: Database, mediaItemId: string, cues: TranscriptCue[]) {
  await db
    .update(transcripts)
    .set({ status: 'ready', words: cues, edited: false, updatedAt: new Date() })
    .where(eq(transcripts.mediaItemId, mediaItemId));
}

export async function failTranscript(db: Database, mediaItemId: string, error: string) {
  await db
    .update(transcripts)
    .set({ status: 'failed', error, updatedAt: new Date() })
    .where(eq(transcripts.mediaItemId, mediaItemId));
}

export async function editTranscript(db: Database, mediaItemId: string, cues: TranscriptCue[]) {
  const rows = await db
    .update(transcripts)
    .set({ words: cues, edited: true, updatedAt: new Date() })
    .where(and(eq(transcripts.mediaItemId, mediaItemId), eq(transcripts.status, 'ready')))
    .returning({ id: transcripts.mediaItemId });
  return rows.length > 0;
}

/** Transcripts left 'working' by a station that stopped mid-way are done again. */
export async function forgetUnfinished(db: Database) {
  await db.delete(transcripts).where(eq(transcripts.status, 'working'));
}

export async function deleteTranscript(db: Database, mediaItemId: string) {
  await db.delete(transcripts).where(eq(transcripts.mediaItemId, mediaItemId));
}

/** Library items by their stored paths ('uploads/NAME'). */
export function mediaIdsByPaths(db: Database, stored: string[]) {
  if (stored.length === 0) return Promise.resolve([]);
  return db
    .select({ id: mediaItems.id, path: mediaItems.path })
    .from(mediaItems)
    .where(inArray(mediaItems.path, stored));
}

/** Which of these library items have a finished transcript. */
export async function readyTranscriptIds(db: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: transcripts.mediaItemId })
    .from(transcripts)
    .where(and(inArray(transcripts.mediaItemId, ids), eq(transcripts.status, 'ready')));
  return new Set(rows.map((r) => r.id));
}
