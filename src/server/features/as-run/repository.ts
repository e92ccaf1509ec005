import { and, asc, eq, gte, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { asRun } from '../../db/schema.js';

export type AsRunRow = typeof asRun.$inferSelect;
export type AsRunValues = typeof asRun.$inferInsert;

export async function insertEntry(db: Database, values: AsRunValues): Promise<number> {
  const [row] = await db.insert(asRun).values(values).returning({ id: asRun.id });
  return row!.id;
}

export async function endEntry(db: Database, id: number, endedAt: Date): Promise<void> {
  await db.update(asRun).set({ endedAt }).where(eq(asRun.id, id));
}

export async function setFigures(
  db: Database,
  id: number,
  figures: { listenersPeak: number; listenersAverage: number; performances: number },
): Promise<void> {
  await db.update(asRun).set(figures).where(eq(asRun.id, id));
}

/**
 * Rows a stop left open (the station was killed): each ends where the next began, else where it began (its
 * length is not known). Their listener figures stay unknown.
 */
export async function endDangling(db: Database): Promise<void> {
  await db.execute(sql`
    update ${asRun} a set ended_at = coalesce(
      (select min(b.started_at) from ${asRun} b where b.started_at > a.started_at), a.started_at)
    where a.ended_at is null`);
}

/** Rows that began in [from, to), oldest first; narrowed to a programme or a presenter's programmes. */
export function entriesBetween(
  db: Database,
  from: Date,
  to: Date,
  only: { programmeId?: string; presenterId?: string } = {},
) {
  const conditions: SQL[] = [gte(asRun.startedAt, from), lt(asRun.startedAt, to)];
  if (only.programmeId) conditions.push(eq(asRun.programmeId, only.programmeId));
  if (only.presenterId) conditions.push(eq(asRun.presenterId, only.presenterId));
  return db
    .select()
    .from(asRun)
    .where(and(...conditions))
    .orderBy(asc(asRun.startedAt), asc(asRun.id));
}

/** Forgets rows that began before `before` (the retention setting). */
export async function deleteEntriesBefore(db: Database, before: Date): Promise<number> {
  const rows = await db.delete(asRun).where(lte(asRun.startedAt, before)).returning({ id: asRun.id });
  return rows.length;
}

/** Rows still open (tests and the stop look). */
export function openEntries(db: Database) {
  return db.select().from(asRun).where(isNull(asRun.endedAt));
}
