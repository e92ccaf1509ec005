import type { Redis } from 'ioredis';

/**
 * The one Redis every shared piece of the station uses when REDIS_URL is set (docs/decisions/017): a
 * command connection (limits, shared counts, publishing) and, on request, a subscriber connection for the
 * event bus. Commands fail at once while Redis is away (no offline queue), so each user falls back to this
 * instance's own view instead of waiting; ioredis keeps reconnecting, and one line is logged when Redis is
 * lost and one when it is back.
 */
export interface SharedRedis {
  /** Commands; `status === 'ready'` while Redis answers. */
  readonly client: Redis;
  /** Prepended to every key and channel, so stations (and test runs) on one Redis never meet. */
  readonly prefix: string;
  /** True while every connection is up. */
  isUp(): boolean;
  /** A connection of its own for SUBSCRIBE (a subscribed connection takes no other commands). */
  subscriber(): Redis;
  close(): Promise<void>;
}

export interface SharedRedisOptions {
  prefix?: string;
  /** Where the lost/back lines go. */
  onLog: (level: 'warn' | 'info', line: string) => void;
  /** Give up waiting for the first connection after this long and start degraded (ioredis keeps trying). */
  connectTimeoutMs?: number;
}

/** The address without its password, for log lines. */
export const redactedRedisUrl = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
};

export async function openSharedRedis(url: string, options: SharedRedisOptions): Promise<SharedRedis> {
  // Loaded only when REDIS_URL is set: a single station does not carry the client's memory.
  const { Redis } = await import('ioredis');
  const where = redactedRedisUrl(url);
  const connections: Redis[] = [];
  /** Unknown until the first connection settles, so starting up is not reported as a return. */
  let up: boolean | undefined;
  const lost = () =>
    options.onLog(
      'warn',
      `Redis at ${where} is unreachable: this instance serves its own view (chat, limits, counts) until it returns`,
    );

  const watch = (connection: Redis) => {
    connections.push(connection);
    // Without a listener ioredis prints every failed reconnect; the state lines below say it once.
    connection.on('error', () => undefined);
    connection.on('ready', changed);
    connection.on('close', changed);
    connection.on('end', changed);
    return connection;
  };
  function changed() {
    const now = connections.every((c) => c.status === 'ready');
    if (now === up || (up === undefined && !now)) return;
    const before = up;
    up = now;
    if (!now) lost();
    else if (before === false)
      options.onLog('info', `Redis at ${where} is back: chat, limits and counts are shared again`);
  }

  const client = watch(
    new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    }),
  );
  const ready = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    setTimeout(resolve, options.connectTimeoutMs ?? 5_000).unref();
  });
  client.connect().catch(() => undefined);
  await ready;
  // A station started while Redis is away says so once, then serves its own view.
  if (up === undefined) {
    up = false;
    lost();
  }

  return {
    client,
    prefix: options.prefix ?? 'station:',
    isUp: () => up === true,
    subscriber() {
      return watch(
        client.duplicate({
          enableOfflineQueue: true,
          maxRetriesPerRequest: null,
          lazyConnect: false,
        }),
      );
    },
    async close() {
      for (const connection of connections) {
        connection.removeAllListeners('close');
        connection.removeAllListeners('end');
        connection.disconnect();
      }
    },
  };
}

/**
 * @fastify/rate-limit's options for a feature's limits: counted in the shared Redis when there is one
 * (every instance together), in memory otherwise. While Redis is away the limit is not applied rather
 * than failing the request (skipOnError); the sign-in and chat limits, which matter more, fall back to memory.
 */
export const rateLimitStore = (redis: SharedRedis | undefined, feature: string) =>
  redis ? { redis: redis.client, nameSpace: `${redis.prefix}rate-limit:${feature}:`, skipOnError: true } : {};
