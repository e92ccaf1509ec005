import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The links the newsletter e-mails carry, signed and stateless: `id.expires.signature` to confirm an
 * address (expires after CONFIRM_LINK_DAYS) and `id.signature` to unsubscribe (never expires, so an old
 * e-mail can always stop the next). The signature is HMAC-SHA256 over the purpose, the subscriber's id and
 * address (and the expiry), with the station's signing secret; the address itself never enters a URL.
 */
export type TokenPurpose = 'confirm' | 'unsubscribe';
export const CONFIRM_LINK_DAYS = 7;

export interface SignedSubscriber {
  id: string;
  email: string;
}

/** What a token says before its signature is checked against the subscriber it names. */
export interface TokenClaim {
  purpose: TokenPurpose;
  id: string;
  /** Unix seconds; null for unsubscribe tokens. */
  expires: number | null;
  signature: string;
}

const ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SIGNATURE = '[A-Za-z0-9_-]{43}';
const SHAPES: Record<TokenPurpose, RegExp> = {
  confirm: new RegExp(`^(${ID})\\.(\\d{1,12})\\.(${SIGNATURE})$`),
  unsubscribe: new RegExp(`^(${ID})\\.(${SIGNATURE})$`),
};

function sign(secret: Buffer, purpose: TokenPurpose, subscriber: SignedSubscriber, expires: number | null) {
  return createHmac('sha256', secret)
    .update(`newsletter-${purpose}\n${subscriber.id}\n${subscriber.email}\n${expires ?? ''}`)
    .digest('base64url');
}

export function confirmToken(secret: Buffer, subscriber: SignedSubscriber, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + CONFIRM_LINK_DAYS * 24 * 60 * 60;
  return `${subscriber.id}.${expires}.${sign(secret, 'confirm', subscriber, expires)}`;
}

export function unsubscribeToken(secret: Buffer, subscriber: SignedSubscriber): string {
  return `${subscriber.id}.${sign(secret, 'unsubscribe', subscriber, null)}`;
}

/** The claim of a well-formed token of this purpose; null for anything else (wrong shape, not text). */
export function readToken(purpose: TokenPurpose, token: unknown): TokenClaim | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const match = SHAPES[purpose].exec(token);
  if (!match) return null;
  return purpose === 'confirm'
    ? { purpose, id: match[1]!, expires: Number(match[2]), signature: match[3]! }
    : { purpose, id: match[1]!, expires: null, signature: match[2]! };
}

/**
 * Whether the claim was signed by this station for this subscriber. Compared as text, in constant time:
 * base64url's last character carries spare bits, so comparing decoded bytes would accept four spellings.
 */
export function isSignedFor(secret: Buffer, claim: TokenClaim, subscriber: SignedSubscriber): boolean {
  const expected = Buffer.from(sign(secret, claim.purpose, subscriber, claim.expires));
  const given = Buffer.from(claim.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const isExpired = (claim: TokenClaim, now = Date.now()) =>
  claim.expires !== null && claim.expires * 1000 <= now;
