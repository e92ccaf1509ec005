import { and, gt, lt, lte, sql } from 'drizzle-orm';
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

/**
 * What a report reads of the sessions overlapping [from, to): times as epoch ms numbers and the shares'
 * columns only (a year is some 100,000 rows; dates and unused columns made up most of reading them).
 */
export function sessionSpansOverlapping(db: Database, from: Date, to: Date) {
  return db
    .select({
      start: sql<number>`(extract(epoch from ${listenerSessions.startedAt}) * 1000)::float8`,
      end: sql<number>`(extract(epoch from ${listenerSessions.endedAt}) * 1000)::float8`,
      bitrate: listenerSessions.bitrate,
      player: listenerSessions.player,
      country: listenerSessions.country,
    })
    .from(listenerSessions)
    .where(and(lt(listenerSessions.startedAt, to), gt(listenerSessions.endedAt, from)));
}
export type SessionSpan = Awaited<ReturnType<typeof sessionSpansOverlapping>>[number];
