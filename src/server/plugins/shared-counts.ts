import { randomUUID } from 'node:crypto';
import type { SharedRedis } from './redis.js';

/** How often each instance tells Redis its own counts and reads everyone else's. */
export const SHARED_COUNTS_EVERY_MS = 5_000;
/** An instance not heard from for this long has stopped (or lost Redis) and no longer counts. */
const STALE_AFTER_MS = 3 * SHARED_COUNTS_EVERY_MS;

/**
 * Figures summed over every app instance (listeners, chat sockets): each instance writes its own numbers
 * into one Redis hash, stamped, every few seconds, and sums the others' fresh entries
 * (docs/decisions/017). A total is the others' last known numbers plus this instance's live one, so a
 * change here shows at once. Without Redis, or while it is away, the others count as nothing.
 */
export interface SharedCounts {
  /** Adds a figure this instance contributes; returns its station-wide total. */
  count(name: string, local: () => number): () => number;
  /** Stops counting this instance (its entry is removed, so the others stop counting it at once). */
  close(): Promise<void>;
}

export function openSharedCounts(redis: SharedRedis | undefined, everyMs = SHARED_COUNTS_EVERY_MS) {
  const locals = new Map<string, () => number>();
  let others = new Map<string, number>();
  const instance = randomUUID();
  const key = `${redis?.prefix ?? ''}counts`;

  const exchange = async (client: SharedRedis['client']) => {
    const mine = Object.fromEntries([...locals].map(([name, read]) => [name, read()]));
    const now = Date.now();
    const [, all] = (await client
      .multi()
      .hset(key, instance, JSON.stringify({ at: now, counts: mine }))
      .hgetall(key)
      .exec()) as [[Error | null, unknown], [Error | null, Record<string, string>]];
    if (all[0]) throw all[0];
    const sums = new Map<string, number>();
    const stale: string[] = [];
    for (const [field, value] of Object.entries(all[1])) {
      if (field === instance) continue;
      const entry = parseEntry(value);
      if (!entry || now - entry.at > STALE_AFTER_MS) {
        stale.push(field);
        continue;
      }
      for (const [name, n] of Object.entries(entry.counts)) sums.set(name, (sums.get(name) ?? 0) + n);
    }
    if (stale.length > 0) await client.hdel(key, ...stale);
    others = sums;
  };

  const tick = () => {
    if (!redis?.isUp()) {
      others = new Map();
      return;
    }
    // A failed exchange keeps the last numbers until the next one, or until Redis is known to be away.
    exchange(redis.client).catch(() => undefined);
  };
  const timer = redis ? setInterval(tick, everyMs) : undefined;
  timer?.unref();

  const counts: SharedCounts = {
    count(name, local) {
      locals.set(name, local);
      if (redis) setImmediate(tick);
      return () => local() + (others.get(name) ?? 0);
    },
    async close() {
      clearInterval(timer);
      if (redis?.isUp()) await redis.client.hdel(key, instance).catch(() => undefined);
    },
  };
  return counts;
}

function parseEntry(value: string): { at: number; counts: Record<string, number> } | undefined {
  try {
    const entry = JSON.parse(value) as { at?: unknown; counts?: unknown };
    if (typeof entry.at !== 'number' || typeof entry.counts !== 'object' || entry.counts === null)
      return undefined;
    const counts = Object.fromEntries(
      Object.entries(entry.counts).filter(
        (pair): pair is [string, number] => Number.isFinite(pair[1]) && pair[1] >= 0,
      ),
    );
    return { at: entry.at, counts };
  } catch {
    return undefined;
  }
}
