import { AccountHold, KnownAddresses, type AccountHoldLimits } from './account-hold.js';
import { addressKey } from './address-key.js';
import { TooManyAttemptsError } from './errors.js';

export { addressKey };

export interface ThrottleLimits extends AccountHoldLimits {
  /** Failed attempts allowed for one username from one address. */
  perAccountAndAddress: number;
  /** Failed attempts allowed from one address, whatever the username. */
  perAddress: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS: ThrottleLimits = {
  perAccountAndAddress: 5,
  perAddress: 20,
  windowMs: 15 * 60 * 1000,
  perAccount: 10,
  accountHoldMs: 60 * 1000,
  accountHoldMaxMs: 15 * 60 * 1000,
  knownAddressMs: 30 * 24 * 60 * 60 * 1000,
};
const MAX_KEYS = 100_000;

/** What sign-in and password change need of a limit: in memory (one instance) or in Redis (several). */
export interface SignInLimiter {
  /** Starts a checked attempt, counted before any hashing; throws TooManyAttemptsError when it must wait. */
  enter(username: string, address: string): void | Promise<void>;
  /** The attempt was right: it does not count, and that username's earlier failures from there are forgiven. */
  succeeded(username: string, address: string): void | Promise<void>;
}

/**
 * The counters an attempt falls under: this username from this network, this network, and this username
 * from anywhere (only from networks it has not signed in from lately).
 */
export function signInKeys(username: string, address: string) {
  const network = addressKey(address);
  const user = username.trim().toLowerCase();
  return { account: `u:${user}\n${network}`, address: `a:${network}`, user: `n:${user}` };
}

/**
 * Counts failed sign-ins per username+address and per address in a sliding window, in memory, and per
 * username from networks it has not signed in from (a short hold, see AccountHold).
 * An attempt is counted when it starts (before the password is hashed), so a burst of parallel
 * guesses cannot all slip in before the first failure is recorded; success takes it back.
 */
export class SignInThrottle implements SignInLimiter {
  private readonly attempts = new Map<string, number[]>();
  private readonly hold: AccountHold;
  private readonly known: KnownAddresses;

  constructor(
    private readonly limits: ThrottleLimits = SIGN_IN_LIMITS,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.hold = new AccountHold(limits, now);
    this.known = new KnownAddresses(limits.knownAddressMs, now);
  }

  /** Milliseconds until this username may be tried from this address again; 0 when it may now. */
  retryAfterMs(username: string, address: string): number {
    const keys = this.keysFor(username, address);
    return Math.max(
      this.waitFor(keys.account, this.limits.perAccountAndAddress),
      this.waitFor(keys.address, this.limits.perAddress),
      this.known.has(username, address) ? 0 : this.hold.heldForMs(username),
    );
  }

  /** Records an attempt about to be checked; returns false (recording nothing) when it must wait. */
  begin(username: string, address: string): boolean {
    if (this.retryAfterMs(username, address) > 0) return false;
    // The username's own count, from unknown networks: going past it starts a hold and refuses.
    if (!this.known.has(username, address) && this.hold.take(username) > 0) return false;
    const keys = this.keysFor(username, address);
    const at = this.now();
    this.push(keys.account, at, this.limits.perAccountAndAddress);
    this.push(keys.address, at, this.limits.perAddress);
    return true;
  }

  /**
   * Starts a checked attempt (sign-in, or the current password on a change), before any hashing so a
   * locked-out guesser costs us nothing; throws TooManyAttemptsError when it must wait.
   */
  enter(username: string, address: string) {
    if (this.begin(username, address)) return;
    const wait = this.retryAfterMs(username, address);
    throw new TooManyAttemptsError(tooManyAttemptsMessage(wait), Math.ceil(wait / 1000));
  }

  /** The attempt was right: it does not count, and that username's earlier failures from there are forgiven. */
  succeeded(username: string, address: string) {
    const keys = this.keysFor(username, address);
    if (!this.known.has(username, address)) this.hold.forgive(username);
    this.known.remember(username, address);
    this.attempts.delete(keys.account);
    const stamps = this.attempts.get(keys.address);
    stamps?.pop();
    if (stamps?.length === 0) this.attempts.delete(keys.address);
  }

  private keysFor(username: string, address: string) {
    return signInKeys(username, address);
  }

  private live(key: string): number[] {
    const cutoff = this.now() - this.limits.windowMs;
    const stamps = (this.attempts.get(key) ?? []).filter((at) => at > cutoff);
    if (stamps.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, stamps);
    return stamps;
  }

  private waitFor(key: string, limit: number): number {
    const stamps = this.live(key);
    if (stamps.length < limit) return 0;
    // Only the newest `limit` are kept; the oldest of them leaving the window frees one attempt.
    return stamps[stamps.length - limit]! + this.limits.windowMs - this.now();
  }

  private push(key: string, at: number, limit: number) {
    const stamps = this.live(key);
    stamps.push(at);
    if (stamps.length > limit) stamps.splice(0, stamps.length - limit);
    this.attempts.set(key, stamps);
    if (this.attempts.size > MAX_KEYS) this.prune();
  }

  /** Bounded memory under a flood of addresses: drop expired keys, then the oldest. */
  private prune() {
    for (const key of [...this.attempts.keys()]) this.live(key);
    for (const key of this.attempts.keys()) {
      if (this.attempts.size <= MAX_KEYS * 0.9) break;
      this.attempts.delete(key);
    }
  }
}

export function tooManyAttemptsMessage(retryAfterMs: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}
