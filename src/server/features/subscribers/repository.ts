import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailSubscribers } from '../../db/schema.js';

export function subscribersNewestFirst(db: Database) {
  return db
    .select()
    .from(emailSubscribers)
    .orderBy(desc(emailSubscribers.createdAt), desc(emailSubscribers.id));
}
