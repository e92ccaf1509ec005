import {
  openGuessLimiter,
  SIGN_IN_LIMITS,
  TooManyAttemptsError,
  type SignInLimiter,
} from '../accounts/service.js';
import type { SharedRedis } from '../../plugins/redis.js';

/**
 * Wrong live-input passwords allowed per address in 15 minutes (10, then a wait), counted like sign-in's
 * (docs/decisions/006): also 10 from all addresses the encoder was never let in from, then a short hold.
 */
export const SOURCE_PASSWORD_LIMITS = { ...SIGN_IN_LIMITS, perAccountAndAddress: 10, perAddress: 10 };
/** The only user name Icecast sources send. */
const SOURCE_USER = 'source';

export interface SourceWait {
  retryAfterSeconds: number;
  message: string;
}

export const sourceWaitMessage = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many wrong source passwords. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
};

/** The live input's password guard: asked before the password is checked, told when it was right. */
export class SourcePasswordGuard {
  constructor(private readonly limiter: SignInLimiter) {}

  static async open(redis: SharedRedis | undefined) {
    return new SourcePasswordGuard(await openGuessLimiter(redis, 'source-password', SOURCE_PASSWORD_LIMITS));
  }

  /** Counts an attempt from this address; the wait instead when it must wait. */
  async enter(address: string | undefined): Promise<SourceWait | undefined> {
    try {
      await this.limiter.enter(SOURCE_USER, address ?? 'unknown');
      return undefined;
    } catch (error) {
      if (!(error instanceof TooManyAttemptsError)) throw error;
      return {
        retryAfterSeconds: error.retryAfterSeconds,
        message: sourceWaitMessage(error.retryAfterSeconds),
      };
    }
  }

  /** The password was right: the attempt does not count, and the address's earlier misses are forgiven. */
  async passed(address: string | undefined) {
    await this.limiter.succeeded(SOURCE_USER, address ?? 'unknown');
  }
}
