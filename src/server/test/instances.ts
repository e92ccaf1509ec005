import pg from 'pg';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/client.js';
import { createRedisBus } from '../plugins/event-bus.js';
import { createScratchPostgres, testConfig } from './helpers.js';
import { openTestRedis, TEST_REDIS_URL } from './redis.js';

/** The PostgreSQL server several instances share: TEST_DATABASE_URL's (CI), else the usual local one. */
export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether that server answers; when TEST_DATABASE_URL names it, it must. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.TEST_DATABASE_URL) throw error;
    console.warn(`Multi-instance tests skipped: no PostgreSQL at ${TEST_POSTGRES_URL}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database for one test file, on the shared server, dropped by `drop()`. */
export const createSharedDatabase = () => createScratchPostgres(TEST_POSTGRES_URL);

export type Instance = Awaited<ReturnType<typeof startInstance>>;

/**
 * One app instance as several run behind a load balancer: its own database pool, its own
 * Redis connections, sharing the database and the Redis prefix with its siblings.
 */
export async function startInstance(
  databaseUrl: string,
  redisPrefix: string,
  options: { redisUrl?: string; env?: Record<string, string> } = {},
) {
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  // TRUST_PROXY: tests give each caller an address of its own through X-Forwarded-For.
  const config = testConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const database = await openDatabase({ dataDir: 'memory://', databaseUrl });
  const shared = await openTestRedis(redisPrefix, redisUrl);
  const bus = await createRedisBus(shared.redis);
  const app = await buildApp({ config, db: database.db, bus, redis: shared.redis });
  await app.ready();
  return {
    app,
    db: database.db,
    ...shared,
    async close() {
      await app.close();
      await bus.close();
      await shared.redis.close();
      await database.close();
    },
  };
}
