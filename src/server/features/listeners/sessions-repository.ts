import { and, gt, lt, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { listenerSessions } from '../../db/schema.js';

export type SessionRow = typeof listenerSessions.$inferSelect;
export type SessionValues = typeof listenerSessions.$inferInsert;

export async function insertSession(db: Database, values: SessionValues): Promise<void> {
  await db.insert(listenerSessions).values(values);
}

/** Sessions that overlap [from, to). */
export function sessionsOverlapping(db: Database, from: Date, to: Date) {
  return db
    .select()
    .from(listenerSessions)
    .where(and(lt(listenerSessions.startedAt, to), gt(listenerSessions.endedAt, from)));
}

/** Forgets sessions that ended before `before` (the retention setting). */
export async function deleteSessionsBefore(db: Database, before: Date): Promise<number> {
  const rows = await db
    .delete(listenerSessions)
    .where(lte(listenerSessions.endedAt, before))
    .returning({ id: listenerSessions.id });
  return rows.length;
}
