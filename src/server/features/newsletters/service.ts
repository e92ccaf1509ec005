import type {
  NewsletterDetail,
  NewsletterPreview,
  NewsletterSummary,
  newsletterDraftSchema,
} from '../../../common/newsletters.js';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { confirmedSubscribers, subscriberMessage, type Mailer } from '../subscribers/service.js';
import { newsletterEmail } from './emails.js';
import { insertNewsletter, newslettersWithCounts, undelivered } from './repository.js';

export type Draft = z.output<typeof newsletterDraftSchema>;

/** Where a preview's unsubscribe link points: the real one is signed for each subscriber. */
const SAMPLE_UNSUBSCRIBE = '/unsubscribe?token=preview';

/** The e-mail as a subscriber will see it, footer included; `origin` is PUBLIC_URL (or this request's). */
export function previewNewsletter(draft: Draft, origin: string, stationName: string): NewsletterPreview {
  return subscriberMessage(
    { ...newsletterEmail(draft, origin), unsubscribeUrl: `${origin}${SAMPLE_UNSUBSCRIBE}` },
    stationName,
  );
}

/** One copy to one address (staff checking it in their own inbox), marked as a test in its subject. */
export async function sendTestNewsletter(mailer: Mailer, draft: Draft & { to: string }, origin: string) {
  const email = newsletterEmail(draft, origin);
  await mailer.sendToSubscriber({
    to: draft.to,
    ...email,
    subject: `[Test] ${email.subject}`,
    unsubscribeUrl: `${origin}${SAMPLE_UNSUBSCRIBE}`,
  });
}

/**
 * Queues the newsletter for every address confirmed now; the sender takes it from there. Undefined when
 * there is no one to send it to.
 */
export async function queueNewsletter(
  db: Database,
  draft: Draft & { perSecond: number },
  createdBy: string,
): Promise<string | undefined> {
  const recipients = await confirmedSubscribers(db);
  if (recipients.length === 0) return undefined;
  const paceMs = Math.round(1000 / draft.perSecond);
  const { subject, body, imageUrl } = draft;
  return insertNewsletter(db, { subject, body, imageUrl, createdBy, paceMs }, recipients);
}

type Row = Awaited<ReturnType<typeof newslettersWithCounts>>[number];
const summary = ({ body: _body, imageUrl: _image, paceMs, ...row }: Row): NewsletterSummary => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  perSecond: Math.round((1000 / paceMs) * 100) / 100,
});

/** Every newsletter sent or sending, newest first, with its progress. */
export async function listNewsletters(db: Database): Promise<NewsletterSummary[]> {
  return (await newslettersWithCounts(db)).map(summary);
}

/** One newsletter with what was written and every address it failed (with the SMTP server's answer). */
export async function newsletterDetail(db: Database, id: string): Promise<NewsletterDetail | undefined> {
  const [row] = await newslettersWithCounts(db, id);
  if (!row) return undefined;
  const failures = await undelivered(db, id);
  return {
    ...summary(row),
    body: row.body,
    imageUrl: row.imageUrl,
    failures: failures.map((f) => ({ ...f, state: f.state === 'unknown' ? 'unknown' : 'failed' })),
  };
}
