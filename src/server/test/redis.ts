import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { openSharedRedis, type SharedRedis } from '../plugins/redis.js';
import { freePort } from './icecast-server.js';

/**
 * The Redis the tests share: TEST_REDIS_URL (CI sets it, and then it must answer), else the usual local
 * one. Every test file keeps to keys and channels under a random prefix of its own and removes them after.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether Redis answers; a missing TEST_REDIS_URL server fails the run, a missing default one is said aloud. */
export async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch (error) {
    if (process.env.TEST_REDIS_URL)
      throw new Error(`TEST_REDIS_URL (${TEST_REDIS_URL}) does not answer: ${String(error)}`);
    console.warn(
      `Redis tests skipped: nothing answers at ${TEST_REDIS_URL} (set TEST_REDIS_URL to require it)`,
    );
    return false;
  } finally {
    probe.disconnect();
  }
}

export const testRedisPrefix = () => `test-${randomBytes(6).toString('hex')}:`;

/** The shared connection as the station opens it, its lines kept for the test to read and wait for. */
export async function openTestRedis(prefix: string, url = TEST_REDIS_URL) {
  const lines: string[] = [];
  const said = new EventEmitter();
  const redis = await openSharedRedis(url, {
    prefix,
    connectTimeoutMs: 1_000,
    onLog: (level, line) => {
      lines.push(`${level}: ${line}`);
      said.emit('line');
    },
  });
  return {
    redis,
    lines,
    /** Resolves once a line (from the start of the test) matches. */
    async untilLine(pattern: RegExp, from = 0) {
      while (!lines.slice(from).some((line) => pattern.test(line)))
        await new Promise((resolve) => said.once('line', resolve));
    },
  };
}

/** Removes every key under the prefix. */
export async function removeKeys(prefix: string, url = TEST_REDIS_URL) {
  const client = new Redis(url);
  client.on('error', () => undefined);
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

export type { SharedRedis };

/** A Redis server of the test's own on a free port (to stop and start again); needs `redis-server`. */
export async function startOwnRedis(port?: number) {
  const at = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(at), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(`redis-server stopped: ${out}`)));
  });
  return {
    port: at,
    url: `redis://127.0.0.1:${at}`,
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
