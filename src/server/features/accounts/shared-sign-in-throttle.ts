import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedRedis } from '../../plugins/redis.js';
import { HOLD_MEMORY_MS, holdLengthMs, KnownAddresses, knownKey } from './account-hold.js';
import { TooManyAttemptsError } from './errors.js';
import {
  SIGN_IN_LIMITS,
  signInKeys,
  tooManyAttemptsMessage,
  type SignInLimiter,
  type ThrottleLimits,
} from './sign-in-throttle.js';

/** A SignInLimiter that always answers later (it asks Redis). */
export interface SharedSignInThrottle extends SignInLimiter {
  enter(username: string, address: string): Promise<void>;
  succeeded(username: string, address: string): Promise<void>;
}

/**
 * The sign-in limits counted in Redis (rate-limiter-flexible), so attempts spread over several app
 * instances count together; the same limits and keys as the in-memory SignInThrottle. Differences the
 * library brings: a window starts at the first counted attempt and frees every attempt when it ends
 * (the in-memory one slides). While Redis is away each instance counts in its own memory (the insurance
 * limiter), so guessing is still limited, per instance. The networks a username signed in from are kept
 * in Redis and in this instance's memory, so the real user is not held while Redis is away either.
 */
export async function openSharedSignInThrottle(
  redis: SharedRedis,
  limits: ThrottleLimits = SIGN_IN_LIMITS,
  /** Whose counters: sign-in's, or another password's (the live input's) kept apart from them. */
  scope = 'sign-in',
): Promise<SharedSignInThrottle> {
  // Loaded only when REDIS_URL is set.
  const { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } = await import('rate-limiter-flexible');
  const duration = Math.ceil(limits.windowMs / 1000);
  const limiter = (name: string, points: number, seconds = duration) =>
    new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: `${redis.prefix}${scope}:${name}`,
      points,
      duration: seconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${scope}:${name}`, points, duration: seconds }),
    });
  const account = limiter('account', limits.perAccountAndAddress);
  const address = limiter('address', limits.perAddress);
  const user = limiter('user', limits.perAccount);
  // How many holds the username had in a day: each one lasts longer (see holdLengthMs).
  const holds = limiter('holds', 1_000_000, HOLD_MEMORY_MS / 1000);
  const knownHere = new KnownAddresses(limits.knownAddressMs);
  const knownRedisKey = (username: string, addr: string) =>
    `${redis.prefix}${scope}:known:${knownKey(username, addr)}`;
  const isKnown = async (username: string, addr: string) =>
    knownHere.has(username, addr) ||
    (await redis.client.exists(knownRedisKey(username, addr)).then(
      (n) => n > 0,
      () => false,
    ));

  const refuse = (res: unknown): never => {
    // Anything but a refusal (the insurance failing too) is a fault, not a lockout.
    if (!(res instanceof RateLimiterRes)) throw res;
    const wait = (res as RateLimiterRes).msBeforeNext;
    throw new TooManyAttemptsError(tooManyAttemptsMessage(wait), Math.ceil(wait / 1000));
  };
  const take = (rl: RateLimiterAbstract, key: string) => rl.consume(key).then(() => undefined);

  return {
    async enter(username, addr) {
      const keys = signInKeys(username, addr);
      // Counted when it starts, atomically in Redis, so a parallel burst cannot slip past the limit.
      await take(account, keys.account).catch(refuse);
      await take(address, keys.address).catch(async (res: unknown) => {
        // Refused for the address: this attempt does not count against the username either.
        await account.reward(keys.account).catch(() => undefined);
        refuse(res);
      });
      if (await isKnown(username, addr)) return;
      await take(user, keys.user).catch(async (res: unknown) => {
        await Promise.all([
          account.reward(keys.account).catch(() => undefined),
          address.reward(keys.address).catch(() => undefined),
        ]);
        // The one attempt that went past the limit (counted atomically) starts the hold.
        if (res instanceof RateLimiterRes && res.consumedPoints === limits.perAccount + 1) {
          const nth = await holds.consume(keys.user).then(
            (r) => r.consumedPoints,
            () => 1,
          );
          const holdMs = holdLengthMs(limits, nth);
          await user.block(keys.user, holdMs / 1000).catch(() => undefined);
          throw new TooManyAttemptsError(tooManyAttemptsMessage(holdMs), Math.ceil(holdMs / 1000));
        }
        refuse(res);
      });
    },
    async succeeded(username, addr) {
      const keys = signInKeys(username, addr);
      const wasKnown = await isKnown(username, addr);
      knownHere.remember(username, addr);
      // The right password: this attempt does not count, and the username's failures from there are forgiven.
      await Promise.all([
        account.delete(keys.account).catch(() => undefined),
        address.reward(keys.address).catch(() => undefined),
        wasKnown ? undefined : user.reward(keys.user).catch(() => undefined),
        redis.client
          .set(knownRedisKey(username, addr), '1', 'PX', limits.knownAddressMs)
          .catch(() => undefined),
      ]);
    },
  };
}
