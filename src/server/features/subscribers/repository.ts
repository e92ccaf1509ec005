import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailSubscribers } from '../../db/schema.js';

export type SubscriberStatus = (typeof emailSubscribers.status.enumValues)[number];

export function subscribersNewestFirst(db: Database) {
  return db
    .select()
    .from(emailSubscribers)
    .orderBy(desc(emailSubscribers.createdAt), desc(emailSubscribers.id));
}

export async function findSubscriber(db: Database, id: string) {
  const [row] = await db
    .select({ id: emailSubscribers.id, email: emailSubscribers.email, status: emailSubscribers.status })
    .from(emailSubscribers)
    .where(eq(emailSubscribers.id, id));
  return row;
}

/** The name a subscription leaves: a new one when given, else the one the address had. */
const nameOr = (name: string | undefined) => (name === undefined ? sql`${emailSubscribers.name}` : name);

/**
 * Without double opt-in, one row per address: a new address is added confirmed; a pending or unsubscribed
 * one is confirmed again (keeping the name it had unless a new one is given); a confirmed one stays so.
 */
export async function upsertConfirmedSubscriber(db: Database, values: { email: string; name?: string }) {
  await db
    .insert(emailSubscribers)
    .values({ email: values.email, name: values.name ?? null, status: 'confirmed', isActive: 'true' })
    .onConflictDoUpdate({
      target: emailSubscribers.email,
      set: { status: 'confirmed', isActive: 'true', name: nameOr(values.name) },
    });
}

/**
 * With double opt-in: a new address is added pending, an unsubscribed one becomes pending again, a pending
 * one stays pending (its name may change), and a confirmed one is left exactly as it is. Answers the row
 * as it now stands, so the caller knows whether a confirmation e-mail is due.
 */
export async function upsertPendingSubscriber(db: Database, values: { email: string; name?: string }) {
  const confirmed = sql`${emailSubscribers.status} = 'confirmed'`;
  const [row] = await db
    .insert(emailSubscribers)
    .values({ email: values.email, name: values.name ?? null, status: 'pending', isActive: 'false' })
    .onConflictDoUpdate({
      target: emailSubscribers.email,
      set: {
        status: sql`case when ${confirmed} then 'confirmed' else 'pending' end`,
        name: sql`case when ${confirmed} then ${emailSubscribers.name} else ${nameOr(values.name)} end`,
      },
    })
    .returning({ id: emailSubscribers.id, email: emailSubscribers.email, status: emailSubscribers.status });
  return row!;
}

/** Pending -> confirmed (active); any other state is left alone. True when this call confirmed it. */
export async function confirmPendingSubscriber(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(emailSubscribers)
    .set({ status: 'confirmed', isActive: 'true' })
    .where(and(eq(emailSubscribers.id, id), eq(emailSubscribers.status, 'pending')))
    .returning({ id: emailSubscribers.id });
  return rows.length > 0;
}

export async function unsubscribeSubscriber(db: Database, id: string): Promise<void> {
  await db
    .update(emailSubscribers)
    .set({ status: 'unsubscribed', isActive: 'false' })
    .where(eq(emailSubscribers.id, id));
}

export function confirmedSubscriberIds(db: Database) {
  return db
    .select({ id: emailSubscribers.id, email: emailSubscribers.email })
    .from(emailSubscribers)
    .where(eq(emailSubscribers.status, 'confirmed'))
    .orderBy(emailSubscribers.createdAt, emailSubscribers.id);
}
