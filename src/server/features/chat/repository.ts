import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { chatMessages, chatModerationLog, chatMutes } from '../../db/schema.js';

export type ChatRow = typeof chatMessages.$inferSelect;
export type ModerationRow = typeof chatModerationLog.$inferSelect;

/**
 * Stores a message, marked muted when its sender is muted now: the mute is looked up in the same
 * statement, so a message costs one round trip to the database. A sender is muted when their own tag is,
 * and also when their network is muted and they either gave no browser id or had not spoken before that
 * mute (a browser id thrown away or made up to escape it); those who chatted from there before stay heard.
 */
export async function insertChatMessage(
  db: Database,
  values: { username: string; message: string },
  sender: { tag: string; network: string; fromBrowser: boolean },
) {
  const earlier = sql`select 1 from ${chatMessages} as earlier where earlier.sender = ${sender.tag} and earlier.created_at < ${chatMutes.createdAt}`;
  const mutedNow = sql<boolean>`exists (select 1 from ${chatMutes} where ${chatMutes.until} > now() and (${chatMutes.sender} = ${sender.tag} or (${chatMutes.network} = ${sender.network} and (${!sender.fromBrowser} or not exists (${earlier})))))`;
  const [row] = await db
    .insert(chatMessages)
    .values({ ...values, sender: sender.tag, network: sender.network, muted: mutedNow })
    .returning();
  return row!;
}

/** The latest messages everyone sees, plus those only `sender` sees (sent while muted), newest first. */
export function latestChatMessages(db: Database, limit: number, sender?: string) {
  const visible = sender
    ? or(eq(chatMessages.muted, false), eq(chatMessages.sender, sender))
    : eq(chatMessages.muted, false);
  return db
    .select()
    .from(chatMessages)
    .where(and(isNull(chatMessages.deletedAt), visible))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
}

/** The latest messages of every kind (hidden and deleted ones too), newest first, for staff. */
export function latestMessagesForStaff(db: Database, limit: number) {
  return db
    .select()
    .from(chatMessages)
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
}

export async function findChatMessage(db: Database, id: string) {
  const [row] = await db.select().from(chatMessages).where(eq(chatMessages.id, id));
  return row;
}

/** Marks a message deleted; the row when it was there and not deleted yet. */
export async function markDeleted(db: Database, id: string) {
  const [row] = await db
    .update(chatMessages)
    .set({ deletedAt: new Date() })
    .where(and(eq(chatMessages.id, id), isNull(chatMessages.deletedAt)))
    .returning();
  return row;
}

export async function muteUntil(db: Database, sender: string, network: string | null, until: Date) {
  await db
    .insert(chatMutes)
    .values({ sender, network, until })
    .onConflictDoUpdate({ target: chatMutes.sender, set: { network, until, createdAt: new Date() } });
}

export async function unmute(db: Database, sender: string): Promise<boolean> {
  const removed = await db.delete(chatMutes).where(eq(chatMutes.sender, sender)).returning();
  return removed.length > 0;
}

/** Until when each of these senders is muted, for those muted now. */
export async function activeMutes(db: Database, senders: string[]): Promise<Map<string, Date>> {
  if (senders.length === 0) return new Map();
  const rows = await db
    .select()
    .from(chatMutes)
    .where(and(inArray(chatMutes.sender, senders), gt(chatMutes.until, sql`now()`)));
  return new Map(rows.map((row) => [row.sender, row.until]));
}

export async function logModeration(
  db: Database,
  values: Pick<ModerationRow, 'action' | 'target' | 'detail' | 'staffUsername'>,
) {
  await db.insert(chatModerationLog).values(values);
}

export function latestModeration(db: Database, limit: number) {
  return db
    .select()
    .from(chatModerationLog)
    .orderBy(desc(chatModerationLog.createdAt), desc(chatModerationLog.id))
    .limit(limit);
}
