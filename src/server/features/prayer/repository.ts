import { and, count, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { PrayerFilter } from '../../../common/prayer.js';
import type { Database } from '../../db/client.js';
import { prayerRequests } from '../../db/schema.js';

export type PrayerRow = typeof prayerRequests.$inferSelect;

export async function insertPrayerRequest(db: Database, values: { name?: string; request: string }) {
  const [row] = await db
    .insert(prayerRequests)
    .values({ ...values, isPrivate: 'true' })
    .returning({ id: prayerRequests.id });
  return row!.id;
}

const filters = {
  open: isNull(prayerRequests.prayedAt),
  prayed: isNotNull(prayerRequests.prayedAt),
} as const;

export function prayerRequestsNewestFirst(db: Database, status?: PrayerFilter) {
  return db
    .select()
    .from(prayerRequests)
    .where(status ? filters[status] : undefined)
    .orderBy(desc(prayerRequests.createdAt), desc(prayerRequests.id));
}

export async function markPrayed(db: Database, id: string, by: string, at: Date) {
  const [row] = await db
    .update(prayerRequests)
    .set({ prayedAt: at, prayedBy: by })
    .where(eq(prayerRequests.id, id))
    .returning();
  return row;
}

export async function deletePrayerRequest(db: Database, id: string) {
  const rows = await db
    .delete(prayerRequests)
    .where(eq(prayerRequests.id, id))
    .returning({ id: prayerRequests.id });
  return rows.length > 0;
}

export async function countUnread(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(prayerRequests).where(isNull(prayerRequests.readAt));
  return row?.n ?? 0;
}

/** Marks read every unread request that came in up to `upTo` (what staff had in front of them). */
export async function markReadUpTo(db: Database, upTo: Date, now: Date) {
  await db
    .update(prayerRequests)
    .set({ readAt: now })
    // Stored times carry microseconds; the time staff were shown carries milliseconds.
    .where(
      and(
        isNull(prayerRequests.readAt),
        lte(sql`date_trunc('milliseconds', ${prayerRequests.createdAt})`, upTo),
      ),
    );
}
