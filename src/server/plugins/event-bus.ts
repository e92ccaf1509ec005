import { EventEmitter } from 'node:events';
import type { SharedRedis } from './redis.js';

/**
 * Station-wide events (chat, now playing, moderation). In one process an EventEmitter carries them;
 * with REDIS_URL every app instance publishes to and hears from the same Redis channel.
 */
export interface EventBus {
  /** `retainMs`: the payload is also kept that long as the topic's last word, for `retained` (MQTT's retained message). */
  publish(topic: string, payload: unknown, options?: { retainMs?: number }): Promise<void>;
  subscribe(topic: string, handler: (payload: unknown) => void): () => void;
  /** The topic's last retained payload while it lasts, so an instance starting late need not wait for the next. */
  retained(topic: string): Promise<unknown>;
  /** Resolves when the bus answers (/readyz); the in-process bus always does. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const kept = new Map<string, { payload: unknown; until: number }>();
  return {
    async publish(topic, payload, options) {
      if (options?.retainMs) kept.set(topic, { payload, until: Date.now() + options.retainMs });
      emitter.emit(topic, payload);
    },
    subscribe(topic, handler) {
      emitter.on(topic, handler);
      return () => emitter.off(topic, handler);
    },
    async retained(topic) {
      const entry = kept.get(topic);
      return entry && entry.until > Date.now() ? entry.payload : undefined;
    },
    async ping() {},
    async close() {
      emitter.removeAllListeners();
      kept.clear();
    },
  };
}

/**
 * The bus over Redis pub/sub, on the shared connection (SharedRedis). A message published while Redis is
 * away is delivered to this instance only: its own listeners still see their chat, the others miss it.
 */
export async function createRedisBus(redis: SharedRedis): Promise<EventBus> {
  const local = createLocalBus();
  const channels = `${redis.prefix}bus:`;
  // Retained payloads are plain keys beside the channels (keys and channels are separate namespaces).
  const retainedKey = (topic: string) => `${redis.prefix}retained:${topic}`;
  const subscriber = redis.subscriber();
  // ioredis subscribes again by itself after a reconnect; while Redis is away the bus is local meanwhile.
  const subscribed = subscriber.psubscribe(`${channels}*`).catch(() => undefined);
  if (redis.isUp()) await subscribed;
  subscriber.on('pmessage', (_pattern, channel, message) => {
    try {
      void local.publish(channel.slice(channels.length), JSON.parse(message));
    } catch {
      // A foreign message on our channel is not ours to crash on.
    }
  });
  return {
    async publish(topic, payload, options) {
      const text = JSON.stringify(payload);
      try {
        if (!redis.isUp()) throw new Error('Redis is away');
        if (options?.retainMs) {
          await redis.client
            .multi()
            .set(retainedKey(topic), text, 'PX', options.retainMs)
            .publish(channels + topic, text)
            .exec();
        } else {
          await redis.client.publish(channels + topic, text);
        }
      } catch {
        await local.publish(topic, JSON.parse(text), options);
      }
    },
    subscribe: local.subscribe,
    async retained(topic) {
      if (!redis.isUp()) return local.retained(topic);
      const text = await redis.client.get(retainedKey(topic));
      return text === null ? undefined : (JSON.parse(text) as unknown);
    },
    async ping() {
      await redis.client.ping();
    },
    async close() {
      await local.close();
    },
  };
}
