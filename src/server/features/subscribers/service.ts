import type { SubscriberListItem } from '../../../common/subscribers.js';
import type { Database } from '../../db/client.js';
import { signingSecret } from '../settings/service.js';
import { confirmationEmail } from './emails.js';
import type { Mailer } from './mailer.js';
import {
  confirmedSubscriberIds,
  confirmPendingSubscriber,
  findSubscriber,
  subscribersNewestFirst,
  unsubscribeSubscriber,
  upsertConfirmedSubscriber,
  upsertPendingSubscriber,
  type SubscriberStatus,
} from './repository.js';
import {
  confirmToken,
  isExpired,
  isSignedFor,
  readToken,
  unsubscribeToken,
  type SignedSubscriber,
  type TokenPurpose,
} from './tokens.js';

export { subscriberMessage, type Mailer } from './mailer.js';

/** Every confirmed address, for a newsletter (issue 42). */
export const confirmedSubscribers = confirmedSubscriberIds;

/** Whether the address may still be written to: confirmed now (not unsubscribed since). */
export async function isConfirmedSubscriber(db: Database, id: string): Promise<boolean> {
  return (await findSubscriber(db, id))?.status === 'confirmed';
}

/** The one-click unsubscribe link for a subscriber on `origin` (no trailing slash), signed by the station. */
export async function unsubscribeUrlFor(db: Database, origin: string, subscriber: SignedSubscriber) {
  return unsubscribeUrl(origin, await signingSecret(db), subscriber);
}

/** SPEC.md section 3's subscriber list item with its opt-in status, newest first. */
export async function listSubscribers(db: Database): Promise<SubscriberListItem[]> {
  const rows = await subscribersNewestFirst(db);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    isActive: row.isActive === 'true',
    status: row.status,
  }));
}

/**
 * A cell a spreadsheet will not run: quoted, and a leading = + - @ (or tab/CR) defused with an apostrophe
 * (OWASP's advice on CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** DESIGN.md section 7: the newsletter list as CSV for staff (status last, so older columns keep their place). */
export async function subscribersCsv(db: Database): Promise<string> {
  const rows = await subscribersNewestFirst(db);
  const header = ['email', 'name', 'active', 'source', 'subscribed_at', 'status'];
  const lines = rows.map((row) =>
    [row.email, row.name ?? '', row.isActive, row.source, row.createdAt.toISOString(), row.status]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}

/** Double opt-in (DESIGN.md section 7), on when SMTP_URL is set. */
export interface OptIn {
  mailer: Mailer;
  /** Where e-mailed links point: PUBLIC_URL, never a request's Host header. */
  publicUrl: string;
  stationName: () => string;
}

export type SubscribeOutcome =
  | { kind: 'confirmed' }
  | { kind: 'confirmation_sent' }
  | { kind: 'already_confirmed' }
  | { kind: 'not_sent'; error: unknown };

/**
 * SPEC.md section 7: a subscription. Without opt-in it is confirmed at once, and a second one of the same
 * address is welcome and changes nothing. With opt-in the address waits, pending, for the link e-mailed to
 * it (sent again on a second subscription); a confirmed address is left alone and sent nothing.
 */
export async function subscribe(
  db: Database,
  body: { email: string; name?: string },
  optIn?: OptIn,
): Promise<SubscribeOutcome> {
  if (!optIn) {
    await upsertConfirmedSubscriber(db, body);
    return { kind: 'confirmed' };
  }
  const subscriber = await upsertPendingSubscriber(db, body);
  if (subscriber.status === 'confirmed') return { kind: 'already_confirmed' };
  const secret = await signingSecret(db);
  const origin = optIn.publicUrl.replace(/\/+$/, '');
  const confirmUrl = `${origin}/newsletter/confirm?token=${confirmToken(secret, subscriber)}`;
  try {
    await optIn.mailer.sendToSubscriber({
      to: subscriber.email,
      ...confirmationEmail(optIn.stationName(), confirmUrl),
      unsubscribeUrl: unsubscribeUrl(origin, secret, subscriber),
    });
  } catch (error) {
    // The row stays pending: the listener is told to try again, and nothing became active.
    return { kind: 'not_sent', error };
  }
  return { kind: 'confirmation_sent' };
}

/** The one-click unsubscribe link every e-mail to a subscriber carries. */
export function unsubscribeUrl(origin: string, secret: Buffer, subscriber: SignedSubscriber): string {
  return `${origin}/unsubscribe?token=${unsubscribeToken(secret, subscriber)}`;
}

/** The subscriber a token was signed for by this station, with what it claims; null for any other token. */
async function signedSubscriber(db: Database, purpose: TokenPurpose, token: unknown) {
  const claim = readToken(purpose, token);
  if (!claim) return null;
  const subscriber = await findSubscriber(db, claim.id);
  if (!subscriber || !isSignedFor(await signingSecret(db), claim, subscriber)) return null;
  return { subscriber, claim };
}

export type ConfirmOutcome = 'confirmed' | 'expired' | 'withdrawn' | 'invalid';

/**
 * The e-mailed confirmation link opened: a pending address becomes confirmed and active. Opening it again
 * says confirmed again; an expired link, or one for an address unsubscribed since, confirms nothing.
 */
export async function confirmSubscription(
  db: Database,
  token: unknown,
  now = Date.now(),
): Promise<ConfirmOutcome> {
  const signed = await signedSubscriber(db, 'confirm', token);
  if (!signed) return 'invalid';
  const { subscriber, claim } = signed;
  if (subscriber.status === 'confirmed') return 'confirmed';
  if (isExpired(claim, now)) return 'expired';
  if (subscriber.status === 'unsubscribed') return 'withdrawn';
  await confirmPendingSubscriber(db, subscriber.id);
  return 'confirmed';
}

/** Where an unsubscribe link leads, without acting on it (mail scanners open links); null when not valid. */
export async function unsubscribeLinkStatus(db: Database, token: unknown): Promise<SubscriberStatus | null> {
  return (await signedSubscriber(db, 'unsubscribe', token))?.subscriber.status ?? null;
}

/** RFC 8058's one-click POST, or the page's button: the address gets nothing more. False when not valid. */
export async function unsubscribe(db: Database, token: unknown): Promise<boolean> {
  const signed = await signedSubscriber(db, 'unsubscribe', token);
  if (!signed) return false;
  await unsubscribeSubscriber(db, signed.subscriber.id);
  return true;
}
