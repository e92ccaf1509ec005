import type { PrayerFilter, PrayerRequest, PrayerRequestBody } from '../../../common/prayer.js';
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';

const toPrayerRequest = (row: repository.PrayerRow): PrayerRequest => ({
  id: row.id,
  name: row.name,
  request: row.request,
  createdAt: row.createdAt.toISOString(),
  prayedAt: row.prayedAt?.toISOString() ?? null,
  prayedBy: row.prayedBy,
});

/** Every request is kept private, whatever the caller sent: only signed-in staff ever read it. */
export function submitPrayerRequest(db: Database, body: { name?: string; request: string }) {
  return repository.insertPrayerRequest(db, {
    request: body.request,
    ...(body.name ? { name: body.name } : {}),
  });
}

export async function listPrayerRequests(db: Database, status?: PrayerFilter) {
  return (await repository.prayerRequestsNewestFirst(db, status)).map(toPrayerRequest);
}

/** Marks a request prayed for, by whom and when; undefined when there is no such request. */
export async function markPrayedFor(db: Database, id: string, username: string, now = new Date()) {
  const row = await repository.markPrayed(db, id, username, now);
  return row && toPrayerRequest(row);
}

export const deletePrayerRequest = repository.deletePrayerRequest;

/** How many requests no staff member has had in front of them yet (the Prayer tab's count). */
export async function unreadCount(db: Database) {
  return { unread: await repository.countUnread(db) };
}

/** Staff saw the inbox as it stood at `upTo`: those requests are read; any that came later stay unread. */
export async function markRead(db: Database, upTo: Date, now = new Date()) {
  await repository.markReadUpTo(db, upTo, now);
  return unreadCount(db);
}

export type { PrayerRequestBody };
