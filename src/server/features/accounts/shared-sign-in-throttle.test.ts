import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/icecast-server.js';
import {
  openTestRedis,
  redisAvailable,
  removeKeys,
  testRedisPrefix,
  type SharedRedis,
} from '../../test/redis.js';
import { TooManyAttemptsError } from './errors.js';
import { openSharedSignInThrottle } from './shared-sign-in-throttle.js';
import type { SignInLimiter } from './sign-in-throttle.js';

const available = await redisAvailable();
const prefix = testRedisPrefix();
const opened: SharedRedis[] = [];
let serial = 0;

/** Two instances' throttles on the same Redis, with a prefix of this test's own. */
async function twoInstances() {
  const testPrefix = `${prefix}${serial++}:`;
  const [a, b] = await Promise.all([openTestRedis(testPrefix), openTestRedis(testPrefix)]);
  opened.push(a.redis, b.redis);
  return [await openSharedSignInThrottle(a.redis), await openSharedSignInThrottle(b.redis)] as const;
}

/** Whether the attempt is let in (a refusal must be a TooManyAttemptsError with its wait). */
async function admitted(throttle: SignInLimiter, username: string, address: string) {
  try {
    await throttle.enter(username, address);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(TooManyAttemptsError);
    return false;
  }
}

afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
  if (available) await removeKeys(prefix);
});

describe.skipIf(!available)('the sign-in limits in Redis', () => {
  it('counts one username at one address on every instance together: 5, then a wait of about 15 minutes', async () => {
    const [a, b] = await twoInstances();
    for (let i = 0; i < 5; i++) expect(await admitted(i % 2 ? a : b, 'Mary', '192.0.2.1')).toBe(true);
    const refused = await a.enter('mary', '192.0.2.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyAttemptsError);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    expect(await admitted(b, 'mary', '192.0.2.1')).toBe(false);
    // Another address is not held, nor another username.
    expect(await admitted(b, 'mary', '192.0.2.2')).toBe(true);
    expect(await admitted(a, 'john', '192.0.2.1')).toBe(true);
  });

  it('lets exactly 5 through out of a parallel burst spread over two instances', async () => {
    const [a, b] = await twoInstances();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => admitted(i % 2 ? a : b, 'mary', '192.0.2.1')),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
  });

  it('forgives a username at an address once its password is right, on any instance', async () => {
    const [a, b] = await twoInstances();
    for (let i = 0; i < 5; i++) await a.enter('mary', '192.0.2.1');
    await b.succeeded('mary', '192.0.2.1');
    for (let i = 0; i < 5; i++) expect(await admitted(b, 'mary', '192.0.2.1')).toBe(true);
  });

  it('holds an address after 20 attempts whatever the usernames, counting an IPv6 /64 as one', async () => {
    const [a, b] = await twoInstances();
    for (let i = 0; i < 20; i++)
      expect(await admitted(i % 2 ? a : b, `user${i}`, `2001:db8:1:2::${i + 1}`)).toBe(true);
    expect(await admitted(a, 'someone-new', '2001:db8:1:2:ffff::9')).toBe(false);
    expect(await admitted(a, 'someone-new', '2001:db8:1:3::1')).toBe(true);
    // The refused attempt did not count against that username: after a wait it has all 5 again.
    expect(await admitted(b, 'someone-new', '192.0.2.77')).toBe(true);
  });
});

describe.skipIf(!available)('the limit per username in Redis', () => {
  it('holds a username after 10 guesses from 40 addresses on two instances, not for its known network', async () => {
    const [a, b] = await twoInstances();
    expect(await admitted(a, 'pastor', '198.51.100.50')).toBe(true);
    await a.succeeded('pastor', '198.51.100.50');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => admitted(i % 2 ? a : b, 'pastor', `203.0.113.${(i % 40) + 1}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    const held = await b.enter('pastor', '192.0.2.200').catch((error: unknown) => error);
    expect(held).toBeInstanceOf(TooManyAttemptsError);
    expect((held as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(60);
    // Known on every instance: the other one lets the staff member in during the attack.
    expect(await admitted(b, 'pastor', '198.51.100.50')).toBe(true);
    expect(await admitted(a, 'deacon', '192.0.2.200')).toBe(true);
  });
});

describe('the sign-in limits with Redis away', () => {
  it('still limit guessing in this instance', async () => {
    // Nothing listens on this port: the station starts degraded and counts in its own memory.
    const { redis, lines } = await openTestRedis(prefix, `redis://127.0.0.1:${await freePort()}`);
    opened.push(redis);
    expect(lines.join('\n')).toMatch(/unreachable: this instance serves its own view/);
    const throttle = await openSharedSignInThrottle(redis);
    for (let i = 0; i < 5; i++) expect(await admitted(throttle, 'mary', '192.0.2.1')).toBe(true);
    expect(await admitted(throttle, 'mary', '192.0.2.1')).toBe(false);
    await throttle.succeeded('mary', '192.0.2.5');
    expect(await admitted(throttle, 'mary', '192.0.2.5')).toBe(true);
  });
});
