import { CHAT_FLOOD } from '../../../common/chat-limits.js';
import type { SharedRedis } from '../../plugins/redis.js';

/**
 * Per key (a connection, an address): at most CHAT_FLOOD.messages in CHAT_FLOOD.windowMs, then
 * CHAT_FLOOD.quietMs of quiet. Keys are forgotten once quiet, so memory follows who is chatting.
 */
export class FloodLimit {
  private readonly recent = new Map<string, { times: number[]; quietUntil: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the key must wait, or 0 when this message may go (and is counted). */
  take(key: string): number {
    const now = this.now();
    const entry = this.recent.get(key) ?? { times: [], quietUntil: 0 };
    if (entry.quietUntil > now) return entry.quietUntil - now;
    entry.times = entry.times.filter((t) => now - t < CHAT_FLOOD.windowMs);
    if (entry.times.length >= CHAT_FLOOD.messages) {
      entry.quietUntil = now + CHAT_FLOOD.quietMs;
      entry.times = [];
      this.recent.set(key, entry);
      return CHAT_FLOOD.quietMs;
    }
    entry.times.push(now);
    this.recent.set(key, entry);
    return 0;
  }

  /** Drops keys with nothing recent (called now and then). */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.recent) {
      if (entry.quietUntil <= now && entry.times.every((t) => now - t >= CHAT_FLOOD.windowMs))
        this.recent.delete(key);
    }
  }
}

/** The per-address limit, whichever instance a sender's messages reach. */
export interface AddressFloodLimit {
  /** Milliseconds the key must wait, or 0 when this message may go (and is counted). */
  take(key: string): Promise<number>;
  sweep(): void;
}

/**
 * CHAT_FLOOD counted in Redis (rate-limiter-flexible) for every instance at once: a window of whole
 * seconds from the first message, then the quiet as a block. While Redis is away, each instance counts alone.
 */
export async function sharedFloodLimit(redis: SharedRedis): Promise<AddressFloodLimit> {
  // Loaded only when REDIS_URL is set.
  const { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } = await import('rate-limiter-flexible');
  const options = {
    points: CHAT_FLOOD.messages,
    duration: Math.ceil(CHAT_FLOOD.windowMs / 1000),
    blockDuration: Math.ceil(CHAT_FLOOD.quietMs / 1000),
  };
  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: redis.client,
    keyPrefix: `${redis.prefix}chat-flood`,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ ...options, keyPrefix: 'chat-flood' }),
  });
  return {
    take: (key) =>
      limiter.consume(key).then(
        () => 0,
        (res: unknown) => {
          if (res instanceof RateLimiterRes) return Math.max(1, res.msBeforeNext);
          throw res;
        },
      ),
    sweep: () => undefined,
  };
}

/** The in-memory limit in the same shape, for a single instance. */
export const localFloodLimit = (limit = new FloodLimit()): AddressFloodLimit => ({
  take: async (key) => limit.take(key),
  sweep: () => limit.sweep(),
});
