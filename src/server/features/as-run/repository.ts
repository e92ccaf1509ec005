import { and, asc, eq, gte, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
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

/** The conditions of a period's rows, narrowed to a programme or a presenter's programmes. */
function within(from: Date, to: Date, only: { programmeId?: string; presenterId?: string }) {
  const conditions: SQL[] = [gte(asRun.startedAt, from), lt(asRun.startedAt, to)];
  if (only.programmeId) conditions.push(eq(asRun.programmeId, only.programmeId));
  if (only.presenterId) conditions.push(eq(asRun.presenterId, only.presenterId));
  return and(...conditions);
}

/**
 * A period's plays counted per item as it aired (the same library item with the same fields at air time):
 * how often, their performances, first and last. A year is some 140,000 rows but a few thousand items, so the
 * database adds them up and the licence files are written from these.
 */
export function playsPerItem(
  db: Database,
  from: Date,
  to: Date,
  only: { programmeId?: string; presenterId?: string },
) {
  return db
    .select({
      mediaId: asRun.mediaId,
      kind: asRun.kind,
      licenceClass: asRun.licenceClass,
      title: asRun.title,
      artist: asRun.artist,
      album: asRun.album,
      label: asRun.label,
      isrc: asRun.isrc,
      composer: asRun.composer,
      ccliSongNumber: asRun.ccliSongNumber,
      plays: sql<number>`count(*)::int`,
      performances: sql<number>`coalesce(sum(${asRun.performances}), 0)::int`,
      first: sql<Date>`min(${asRun.startedAt})`.mapWith(asRun.startedAt),
      last: sql<Date>`max(${asRun.startedAt})`.mapWith(asRun.startedAt),
    })
    .from(asRun)
    .where(within(from, to, only))
    .groupBy(
      asRun.mediaId,
      asRun.kind,
      asRun.licenceClass,
      asRun.title,
      asRun.artist,
      asRun.album,
      asRun.label,
      asRun.isrc,
      asRun.composer,
      asRun.ccliSongNumber,
    );
}

/** Listener figures per programme over a period: seconds aired, listener-seconds, highest peak. */
export function figuresPerProgramme(
  db: Database,
  from: Date,
  to: Date,
  only: { programmeId?: string; presenterId?: string },
) {
  const seconds = sql`extract(epoch from (${asRun.endedAt} - ${asRun.startedAt}))`;
  return db
    .select({
      programmeId: asRun.programmeId,
      programmeTitle: sql<string | null>`max(${asRun.programmeTitle})`,
      seconds: sql<number>`coalesce(sum(${seconds}), 0)::float8`,
      listenerSeconds: sql<number>`coalesce(sum(${asRun.listenersAverage} * ${seconds}), 0)::float8`,
      peak: sql<number>`coalesce(max(${asRun.listenersPeak}), 0)::int`,
    })
    .from(asRun)
    .where(and(within(from, to, only), isNotNull(asRun.endedAt), isNotNull(asRun.listenersAverage)))
    .groupBy(asRun.programmeId);
}

/** When the rows of a period aired: a programme's or a presenter's airtime. */
export function airtimes(
  db: Database,
  from: Date,
  to: Date,
  only: { programmeId?: string; presenterId?: string },
) {
  return db
    .select({ start: asRun.startedAt, end: asRun.endedAt })
    .from(asRun)
    .where(and(within(from, to, only), isNotNull(asRun.endedAt)))
    .orderBy(asc(asRun.startedAt));
}
