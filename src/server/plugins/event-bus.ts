import { EventEmitter } from 'node:events';
import type { SharedRedis } from './redis.js';

/**
 * Station-wide events (chat, now playing, moderation). In one process an EventEmitter carries them;
 * with REDIS_URL every app instance publishes to and hears from the same Redis channel.
 */
export interface EventBus {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe(topic: string, handler: (payload: unknown) => void): () => void;
  close(): Promise<void>;
}

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(topic, payload) {
      emitter.emit(topic, payload);
    },
    subscribe(topic, handler) {
      emitter.on(topic, handler);
      return () => emitter.off(topic, handler);
    },
    async close() {
      emitter.removeAllListeners();
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
    async publish(topic, payload) {
      const text = JSON.stringify(payload);
      try {
        if (!redis.isUp()) throw new Error('Redis is away');
        await redis.client.publish(channels + topic, text);
      } catch {
        await local.publish(topic, JSON.parse(text));
      }
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
    },
  };
}
