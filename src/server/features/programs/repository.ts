import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { addDays, dayOfDate, type DayOfWeek } from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import { programOverrides, programs } from '../../db/schema.js';

export type ProgramValues = typeof programs.$inferInsert;
export type ProgramRow = typeof programs.$inferSelect;
export type OneOffValues = typeof programOverrides.$inferInsert;
export type OneOffRow = typeof programOverrides.$inferSelect;

export function allPrograms(db: Database) {
  return db.select().from(programs).orderBy(asc(programs.startTime), asc(programs.id));
}

export function activeProgramsOn(db: Database, days: DayOfWeek[]) {
  return db
    .select()
    .from(programs)
    .where(and(inArray(programs.dayOfWeek, days), eq(programs.isActive, 'true')))
    .orderBy(asc(programs.startTime));
}

export async function programById(db: Database, id: string) {
  const [row] = await db.select().from(programs).where(eq(programs.id, id));
  return row;
}

export async function insertPrograms(db: Database, values: ProgramValues[]) {
  await db.insert(programs).values(values);
}

export async function insertProgram(db: Database, values: ProgramValues) {
  const [row] = await db.insert(programs).values(values).returning();
  return row!;
}

export async function updateProgram(db: Database, id: string, values: Partial<ProgramValues>) {
  const [row] = await db.update(programs).set(values).where(eq(programs.id, id)).returning();
  return row;
}

export async function deleteProgram(db: Database, id: string) {
  const rows = await db.delete(programs).where(eq(programs.id, id)).returning({ id: programs.id });
  return rows.length > 0;
}

export async function countSamplePrograms(db: Database) {
  const [row] = await db.select({ n: count() }).from(programs).where(eq(programs.sample, true));
  return row?.n ?? 0;
}

/** Marks as sample the programmes equal in every field to one of these, and airing nothing of their own. */
export async function markSamplePrograms(db: Database, values: ProgramValues[]) {
  let marked = 0;
  for (const v of values) {
    const rows = await db
      .update(programs)
      .set({ sample: true })
      .where(
        and(
          eq(programs.title, v.title),
          eq(programs.speaker, v.speaker ?? ''),
          eq(programs.ministryFocus, v.ministryFocus ?? ''),
          eq(programs.description, v.description ?? ''),
          eq(programs.startTime, v.startTime),
          eq(programs.duration, v.duration),
          eq(programs.dayOfWeek, v.dayOfWeek),
          isNull(programs.airs),
        ),
      )
      .returning({ id: programs.id });
    marked += rows.length;
  }
  return marked;
}

/**
 * Deletes the sample programmes. A one-off replacement of one (staff's own work) becomes a special programme
 * added on its date instead of going with it; a cancellation of one has nothing left to cancel and goes.
 */
export async function deleteSamplePrograms(db: Database) {
  return db.transaction(async (tx) => {
    const samples = tx.select({ id: programs.id }).from(programs).where(eq(programs.sample, true));
    await tx
      .update(programOverrides)
      .set({ kind: 'add', programId: null })
      .where(
        and(
          eq(programOverrides.kind, 'replace'),
          isNotNull(programOverrides.programId),
          inArray(programOverrides.programId, samples),
        ),
      );
    const rows = await tx.delete(programs).where(eq(programs.sample, true)).returning({ id: programs.id });
    return rows.length;
  });
}

/** One-off changes dated from `from` to `to` (inclusive), each with the weekly programme it changes. */
export function oneOffsBetween(db: Database, from: string, to: string) {
  return db
    .select({
      oneOff: programOverrides,
      replaces: { title: programs.title, startTime: programs.startTime, duration: programs.duration },
    })
    .from(programOverrides)
    .leftJoin(programs, eq(programs.id, programOverrides.programId))
    .where(and(gte(programOverrides.date, from), lte(programOverrides.date, to)))
    .orderBy(asc(programOverrides.date), asc(programOverrides.startTime), asc(programOverrides.createdAt));
}

export async function oneOffById(db: Database, id: string) {
  const [row] = await db
    .select({
      oneOff: programOverrides,
      replaces: { title: programs.title, startTime: programs.startTime, duration: programs.duration },
    })
    .from(programOverrides)
    .leftJoin(programs, eq(programs.id, programOverrides.programId))
    .where(eq(programOverrides.id, id));
  return row;
}

/** Saves a one-off change; a newer change to the same weekly programme on the same date takes its place. */
export async function saveOneOff(db: Database, values: OneOffValues) {
  const { kind, title, speaker, ministryFocus, description, startTime, duration, airs } = values;
  const insert = db.insert(programOverrides).values(values);
  const [row] = values.programId
    ? await insert
        .onConflictDoUpdate({
          target: [programOverrides.date, programOverrides.programId],
          set: {
            kind,
            title,
            speaker,
            ministryFocus,
            description,
            startTime,
            duration,
            airs,
            createdAt: new Date(),
          },
        })
        .returning({ id: programOverrides.id })
    : await insert.returning({ id: programOverrides.id });
  return row!.id;
}

export async function deleteOneOff(db: Database, id: string) {
  const rows = await db
    .delete(programOverrides)
    .where(eq(programOverrides.id, id))
    .returning({ id: programOverrides.id });
  return rows.length > 0;
}

/** The weekly programmes and one-off changes from `from` to `to`, as the schedule's arithmetic wants them. */
export async function scheduleBetween(db: Database, from: string, to: string) {
  const days: DayOfWeek[] = [];
  for (let date = from; date <= to && days.length < 7; date = addDays(date, 1)) days.push(dayOfDate(date));
  const [weekly, oneOffs] = await Promise.all([activeProgramsOn(db, days), oneOffsBetween(db, from, to)]);
  return { weekly, oneOffs: oneOffs.map((row) => row.oneOff) };
}

/** The title of a programme (weekly, or a one-off on a date still to come) whose `airs` names an id. */
export async function programAiring(
  db: Database,
  field: 'mediaId' | 'playlistId' | 'fillPlaylistId' | 'presenterId',
  id: string,
  today: string,
) {
  const [weekly] = await db
    .select({ title: programs.title })
    .from(programs)
    .where(sql`${programs.airs}->>${field} = ${id}`)
    .limit(1);
  if (weekly) return weekly.title;
  const [oneOff] = await db
    .select({ title: programOverrides.title, date: programOverrides.date })
    .from(programOverrides)
    .where(and(sql`${programOverrides.airs}->>${field} = ${id}`, gte(programOverrides.date, today)))
    .limit(1);
  return oneOff ? `${oneOff.title} (${oneOff.date})` : undefined;
}
