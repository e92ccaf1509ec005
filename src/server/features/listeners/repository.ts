import { and, asc, desc, gte, lt, max, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { listenerMinutes } from '../../db/schema.js';
import type { MinuteFigures } from '../../radio/listener-stats.js';

/** Stores one minute's figures (a repeated minute adds up, e.g. after a restart within it). */
export async function upsertMinute(db: Database, figures: MinuteFigures & { minute: Date }): Promise<void> {
  await db
    .insert(listenerMinutes)
    .values(figures)
    .onConflictDoUpdate({
      target: listenerMinutes.minute,
      set: {
        listeners: figures.listeners,
        peak: sql`greatest(${listenerMinutes.peak}, ${figures.peak})`,
        listeningSeconds: sql`${listenerMinutes.listeningSeconds} + ${figures.listeningSeconds}`,
      },
    });
}

/** Seconds listened and the highest peak of the minutes from `since`. */
export async function totalsSince(db: Database, since: Date) {
  const [row] = await db
    .select({ seconds: sum(listenerMinutes.listeningSeconds), peak: max(listenerMinutes.peak) })
    .from(listenerMinutes)
    .where(gte(listenerMinutes.minute, since));
  return { seconds: Number(row?.seconds ?? 0), peak: row?.peak ?? 0 };
}

/** The newest `limit` minutes from `since`, newest first. */
export async function latestMinutes(db: Database, since: Date, limit: number) {
  return db
    .select()
    .from(listenerMinutes)
    .where(gte(listenerMinutes.minute, since))
    .orderBy(desc(listenerMinutes.minute))
    .limit(limit);
}

/** Seconds listened per stored minute in [since, until), oldest first. */
export async function secondsPerMinute(db: Database, since: Date, until: Date) {
  return db
    .select({ minute: listenerMinutes.minute, seconds: listenerMinutes.listeningSeconds })
    .from(listenerMinutes)
    .where(and(gte(listenerMinutes.minute, since), lt(listenerMinutes.minute, until)))
    .orderBy(asc(listenerMinutes.minute));
}
