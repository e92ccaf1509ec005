import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { chatMessages } from '../../db/schema.js';

export type ChatRow = typeof chatMessages.$inferSelect;

export async function insertChatMessage(db: Database, values: { username: string; message: string }) {
  const [row] = await db.insert(chatMessages).values(values).returning();
  return row!;
}

export function latestChatMessages(db: Database, limit: number) {
  return db
    .select()
    .from(chatMessages)
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
}
