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

export interface SessionSpan {
  start: number;
  end: number;
  bitrate: number;
  player: string;
  country: string | null;
}

/**
 * What a report reads of the sessions overlapping [from, to): times as epoch ms and the shares' columns. A year
 * is some 100,000 rows; handed over one by one they took seconds on PGlite, so the database joins them into
 * one text (players and countries are codes: no comma or semicolon in them).
 */
export async function sessionSpansOverlapping(db: Database, from: Date, to: Date): Promise<SessionSpan[]> {
  const [row] = await db
    .select({
      spans: sql<string | null>`string_agg(concat_ws(',',
        (extract(epoch from ${listenerSessions.startedAt}) * 1000)::bigint,
        (extract(epoch from ${listenerSessions.endedAt}) * 1000)::bigint,
        ${listenerSessions.bitrate}, ${listenerSessions.player}, coalesce(${listenerSessions.country}, '')), ';')`,
    })
    .from(listenerSessions)
    .where(and(lt(listenerSessions.startedAt, to), gt(listenerSessions.endedAt, from)));
  if (!row?.spans) return [];
  return row.spans.split(';').map((span) => {
    const [start, end, bitrate, player, country] = span.split(',');
    return {
      start: Number(start),
      end: Number(end),
      bitrate: Number(bitrate),
      player: player!,
      country: country || null,
    };
  });
}
