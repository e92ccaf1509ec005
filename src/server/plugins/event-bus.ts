import { EventEmitter } from 'node:events';

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
  return {
    async publish(topic, payload) {
      await publisher.publish(channelPrefix + topic, JSON.stringify(payload));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
