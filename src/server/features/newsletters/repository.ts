import { and, asc, desc, eq, inArray, lte, min, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { newsletterDeliveries, newsletters } from '../../db/schema.js';

type NewNewsletter = Pick<
  typeof newsletters.$inferInsert,
  'subject' | 'body' | 'imageUrl' | 'createdBy' | 'paceMs'
>;

/** The newsletter and one queued delivery per recipient, in one transaction: all or nothing is queued. */
export async function insertNewsletter(
  db: Database,
  values: NewNewsletter,
  recipients: { id: string; email: string }[],
) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(newsletters).values(values).returning({ id: newsletters.id });
    const id = row!.id;
    // In slices: a bound parameter list has a limit, and a station may have many thousands of subscribers.
    for (let i = 0; i < recipients.length; i += 1000)
      await tx
        .insert(newsletterDeliveries)
        .values(
          recipients
            .slice(i, i + 1000)
            .map((r) => ({ newsletterId: id, subscriberId: r.id, email: r.email })),
        );
    return id;
  });
}

const d = newsletterDeliveries;
const count = (state: (typeof d.state.enumValues)[number] | 'left') =>
  state === 'left'
    ? sql<number>`count(*) filter (where ${d.state} in ('queued', 'sending'))::int`
    : sql<number>`count(*) filter (where ${d.state} = ${state})::int`;

const summaryColumns = {
  id: newsletters.id,
  subject: newsletters.subject,
  body: newsletters.body,
  imageUrl: newsletters.imageUrl,
  createdBy: newsletters.createdBy,
  createdAt: newsletters.createdAt,
  finishedAt: newsletters.finishedAt,
  status: newsletters.status,
  paceMs: newsletters.paceMs,
  recipients: sql<number>`count(${d.subscriberId})::int`,
  sent: count('sent'),
  failed: count('failed'),
  left: count('left'),
  skipped: count('skipped'),
  unknown: count('unknown'),
};

/** Every newsletter with its deliveries counted by state, newest first. */
export function newslettersWithCounts(db: Database, id?: string) {
  return db
    .select(summaryColumns)
    .from(newsletters)
    .leftJoin(d, eq(d.newsletterId, newsletters.id))
    .where(id === undefined ? undefined : eq(newsletters.id, id))
    .groupBy(newsletters.id)
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id));
}

/** The recipients a newsletter did not reach (or may not have), with the SMTP server's last answer. */
export function undelivered(db: Database, newsletterId: string) {
  return db
    .select({ email: d.email, attempts: d.attempts, state: d.state, error: d.lastError })
    .from(d)
    .where(and(eq(d.newsletterId, newsletterId), inArray(d.state, ['failed', 'unknown'])))
    .orderBy(asc(d.email));
}

export type Delivery = Awaited<ReturnType<typeof claimNextDelivery>> & object;

/**
 * The next delivery due, taken: its state becomes `sending` (and its attempt counted) before anything is
 * sent. The oldest newsletter goes first. Undefined when nothing is due now.
 */
export async function claimNextDelivery(db: Database, now: Date) {
  const [due] = await db
    .select({
      newsletterId: d.newsletterId,
      subscriberId: d.subscriberId,
      email: d.email,
      subject: newsletters.subject,
      body: newsletters.body,
      imageUrl: newsletters.imageUrl,
      paceMs: newsletters.paceMs,
    })
    .from(d)
    .innerJoin(newsletters, eq(newsletters.id, d.newsletterId))
    .where(and(eq(d.state, 'queued'), eq(newsletters.status, 'sending'), lte(d.nextAt, now)))
    .orderBy(asc(newsletters.createdAt), asc(d.nextAt), asc(d.subscriberId))
    .limit(1);
  if (!due) return undefined;
  const [taken] = await db
    .update(d)
    .set({ state: 'sending', attempts: sql`${d.attempts} + 1` })
    .where(and(deliveryIs(due), eq(d.state, 'queued')))
    .returning({ attempts: d.attempts });
  return taken ? { ...due, attempts: taken.attempts } : undefined;
}

type DeliveryKey = { newsletterId: string; subscriberId: string };
const deliveryIs = (key: DeliveryKey) =>
  and(eq(d.newsletterId, key.newsletterId), eq(d.subscriberId, key.subscriberId));

export async function settleDelivery(
  db: Database,
  key: DeliveryKey,
  outcome:
    | { state: 'sent' | 'skipped' }
    | { state: 'failed'; error: string }
    | { state: 'queued'; error: string; nextAt: Date },
) {
  const done = outcome.state === 'queued' ? null : new Date();
  await db
    .update(d)
    .set({
      state: outcome.state,
      doneAt: done,
      ...('error' in outcome && { lastError: outcome.error }),
      ...('nextAt' in outcome && { nextAt: outcome.nextAt }),
    })
    .where(deliveryIs(key));
}

/**
 * At start: a delivery left `sending` was being handed to the SMTP server when the station stopped, and
 * may have been accepted. It is marked `unknown` and never sent again (at most once, decision 029).
 */
export async function markInterruptedUnknown(db: Database) {
  await db
    .update(d)
    .set({ state: 'unknown', doneAt: new Date(), lastError: 'The station stopped while this was being sent' })
    .where(eq(d.state, 'sending'));
}

/** When the next queued delivery (a retry waiting) falls due; null when none waits. */
export async function nextDueAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(d.nextAt) })
    .from(d)
    .innerJoin(newsletters, eq(newsletters.id, d.newsletterId))
    .where(and(eq(d.state, 'queued'), eq(newsletters.status, 'sending')));
  return row?.at ?? null;
}

/** Newsletters with nothing queued or being sent are done. */
export async function finishSentNewsletters(db: Database) {
  await db
    .update(newsletters)
    .set({ status: 'done', finishedAt: new Date() })
    .where(
      and(
        eq(newsletters.status, 'sending'),
        sql`not exists (select 1 from ${d} where ${d.newsletterId} = ${newsletters.id} and ${d.state} in ('queued', 'sending'))`,
      ),
    );
}
