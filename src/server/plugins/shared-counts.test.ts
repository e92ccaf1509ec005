import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  openTestRedis,
  redisAvailable,
  removeKeys,
  testRedisPrefix,
  type SharedRedis,
} from '../test/redis.js';
import { openSharedCounts } from './shared-counts.js';

const available = await redisAvailable();
const prefix = testRedisPrefix();
const opened: SharedRedis[] = [];

afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
  if (available) await removeKeys(prefix);
});

describe('openSharedCounts without Redis', () => {
  it('counts this instance alone', async () => {
    let mine = 3;
    const counts = openSharedCounts(undefined);
    const total = counts.count('chatting', () => mine);
    expect(total()).toBe(3);
    mine = 4;
    expect(total()).toBe(4);
    await counts.close();
  });
});

describe.skipIf(!available)('openSharedCounts with Redis', () => {
  it('sums fresh instances, forgets one not heard from for a while, and one that closed', async () => {
    const { redis } = await openTestRedis(prefix);
    opened.push(redis);
    // An instance that stopped a minute ago without saying so, and a foreign or broken entry.
    await redis.client.hset(`${prefix}counts`, {
      gone: JSON.stringify({ at: Date.now() - 60_000, counts: { chatting: 100 } }),
      broken: 'not json',
    });
    const [first, second] = [openSharedCounts(redis, 50), openSharedCounts(redis, 50)];
    const totalOnFirst = first.count('chatting', () => 2);
    second.count('chatting', () => 5);
    await vi.waitFor(() => expect(totalOnFirst()).toBe(7));
    await vi.waitFor(async () =>
      expect(Object.keys(await redis.client.hgetall(`${prefix}counts`))).toHaveLength(2),
    );
    await second.close();
    await vi.waitFor(() => expect(totalOnFirst()).toBe(2));
    await first.close();
    expect(await redis.client.hlen(`${prefix}counts`)).toBe(0);
  });
});
