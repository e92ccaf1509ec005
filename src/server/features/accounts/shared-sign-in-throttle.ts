import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedRedis } from '../../plugins/redis.js';
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
 * limiter), so guessing is still limited, per instance.
 */
export async function openSharedSignInThrottle(
  redis: SharedRedis,
  limits: ThrottleLimits = SIGN_IN_LIMITS,
): Promise<SharedSignInThrottle> {
  // Loaded only when REDIS_URL is set.
  const { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } = await import('rate-limiter-flexible');
  const duration = Math.ceil(limits.windowMs / 1000);
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: `${redis.prefix}sign-in:${name}`,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `sign-in:${name}`, points, duration }),
    });
  const account = limiter('account', limits.perAccountAndAddress);
  const address = limiter('address', limits.perAddress);

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
    },
    async succeeded(username, addr) {
      const keys = signInKeys(username, addr);
      // The right password: this attempt does not count, and the username's failures from there are forgiven.
      await Promise.all([
        account.delete(keys.account).catch(() => undefined),
        address.reward(keys.address).catch(() => undefined),
      ]);
    },
  };
}
