import { addressKey } from './address-key.js';

export interface AccountHoldLimits {
  /** Failed attempts on one username, from addresses it has not signed in from, before it is held. */
  perAccount: number;
  windowMs: number;
  /** The first hold; each further hold within a day doubles it, up to accountHoldMaxMs. */
  accountHoldMs: number;
  accountHoldMaxMs: number;
  /** How long a network that signed in as a user stays exempt from that user's hold. */
  knownAddressMs: number;
}

/** Holds are counted over a day to decide how long the next one lasts. */
export const HOLD_MEMORY_MS = 24 * 60 * 60 * 1000;
const MAX_KEYS = 100_000;

/** The n-th hold of a username within a day (1 for the first): short, doubling, capped. */
export const holdLengthMs = (limits: AccountHoldLimits, nth: number) =>
  Math.min(limits.accountHoldMaxMs, limits.accountHoldMs * 2 ** Math.max(0, Math.min(nth - 1, 20)));

const userKey = (username: string) => username.trim().toLowerCase();
export const knownKey = (username: string, address: string) => `${userKey(username)}\n${addressKey(address)}`;

/** Keeps at most MAX_KEYS entries: expired ones go first, then the oldest. */
function bound<V>(map: Map<string, V>, expired: (value: V) => boolean) {
  if (map.size <= MAX_KEYS) return;
  for (const [key, value] of map) if (expired(value)) map.delete(key);
  for (const key of map.keys()) {
    if (map.size <= MAX_KEYS * 0.9) break;
    map.delete(key);
  }
}

/** The networks each username signed in from lately, in memory. */
export class KnownAddresses {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly keepMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  has(username: string, address: string): boolean {
    const key = knownKey(username, address);
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(key);
    return false;
  }

  remember(username: string, address: string) {
    const key = knownKey(username, address);
    this.until.delete(key); // re-inserted last, so the oldest are dropped first
    this.until.set(key, this.now() + this.keepMs);
    bound(this.until, (until) => until <= this.now());
  }
}

interface Account {
  failures: number[];
  heldUntil: number;
  holds: number[];
}

/**
 * One username's failures from every address it has not signed in from: past the limit it is held for a
 * short while that doubles with each hold in a day. The real user at a known address is never held.
 */
export class AccountHold {
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly limits: AccountHoldLimits,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Milliseconds the username is held for; 0 when it may be tried. */
  heldForMs(username: string): number {
    const account = this.accounts.get(userKey(username));
    return account ? Math.max(0, account.heldUntil - this.now()) : 0;
  }

  /** Counts an attempt about to be checked; returns the wait (a hold starting now) instead when it must wait. */
  take(username: string): number {
    const held = this.heldForMs(username);
    if (held > 0) return held;
    const now = this.now();
    const account = this.live(userKey(username));
    if (account.failures.length < this.limits.perAccount) {
      account.failures.push(now);
      return 0;
    }
    account.holds.push(now);
    account.failures = [];
    account.heldUntil = now + holdLengthMs(this.limits, account.holds.length);
    return account.heldUntil - now;
  }

  /** The attempt was right: it does not count. */
  forgive(username: string) {
    this.accounts.get(userKey(username))?.failures.pop();
  }

  private live(key: string): Account {
    const now = this.now();
    const account = this.accounts.get(key) ?? { failures: [], heldUntil: 0, holds: [] };
    account.failures = account.failures.filter((at) => at > now - this.limits.windowMs);
    account.holds = account.holds.filter((at) => at > now - HOLD_MEMORY_MS);
    this.accounts.delete(key);
    this.accounts.set(key, account);
    bound(this.accounts, (a) => a.heldUntil <= now && a.holds.every((at) => at <= now - HOLD_MEMORY_MS));
    return account;
  }
}
