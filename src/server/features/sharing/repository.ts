import { count, gte } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { shareEvents } from '../../db/schema.js';
import type { ShareChannel } from '../../../common/sharing.js';

export async function insertShareEvent(db: Database, channel: ShareChannel): Promise<void> {
  await db.insert(shareEvents).values({ channel });
}

/** Shares since `since`, or all of them. */
export async function countShares(db: Database, since?: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(shareEvents)
    .where(since ? gte(shareEvents.createdAt, since) : undefined);
  return row?.n ?? 0;
}
