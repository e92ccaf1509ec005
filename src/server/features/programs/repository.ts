import { and, asc, eq } from 'drizzle-orm';
import type { DayOfWeek } from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import { programs } from '../../db/schema.js';

export type ProgramValues = typeof programs.$inferInsert;

export function activeProgramsOn(db: Database, day: DayOfWeek) {
  return db
    .select()
    .from(programs)
    .where(and(eq(programs.dayOfWeek, day), eq(programs.isActive, 'true')))
    .orderBy(asc(programs.startTime));
}

export async function insertPrograms(db: Database, values: ProgramValues[]) {
  await db.insert(programs).values(values);
}
