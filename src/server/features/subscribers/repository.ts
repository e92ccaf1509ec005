import { desc, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailSubscribers } from '../../db/schema.js';

export function subscribersNewestFirst(db: Database) {
  return db
    .select()
    .from(emailSubscribers)
    .orderBy(desc(emailSubscribers.createdAt), desc(emailSubscribers.id));
}

/**
 * One row per address: a new address is added; an unsubscribed one is made active again (keeping the
 * name it had unless a new one is given); an active one is left as it is.
 */
export async function upsertSubscriber(db: Database, values: { email: string; name?: string }) {
  await db
    .insert(emailSubscribers)
    .values({ email: values.email, name: values.name ?? null })
    .onConflictDoUpdate({
      target: emailSubscribers.email,
      set: {
        isActive: 'true',
        name: values.name === undefined ? sql`${emailSubscribers.name}` : values.name,
      },
    });
}
