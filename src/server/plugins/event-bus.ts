import { EventEmitter } from 'node:events';

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

export async function createRedisBus(url: string, channelPrefix = 'station:'): Promise<EventBus> {
  // Loaded only when REDIS_URL is set: a single station does not carry the client's memory.
  const { Redis } = await import('ioredis');
  const local = createLocalBus();
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.psubscribe(`${channelPrefix}*`);
  subscriber.on('pmessage', (_pattern, channel, message) => {
    try {
      void local.publish(channel.slice(channelPrefix.length), JSON.parse(message));
    } catch {
      // A foreign message on our channel is not ours to crash on.
    }
  });
  // Retained payloads are plain keys beside the channels (keys and channels are separate namespaces).
  const retainedKey = (topic: string) => `${channelPrefix}retained:${topic}`;
  return {
    async publish(topic, payload, options) {
      const text = JSON.stringify(payload);
      if (options?.retainMs) {
        await publisher
          .multi()
          .set(retainedKey(topic), text, 'PX', options.retainMs)
          .publish(channelPrefix + topic, text)
          .exec();
      } else {
        await publisher.publish(channelPrefix + topic, text);
      }
    },
    subscribe: local.subscribe,
    async retained(topic) {
      const text = await publisher.get(retainedKey(topic));
      return text === null ? undefined : (JSON.parse(text) as unknown);
    },
    async ping() {
      await publisher.ping();
    },
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
