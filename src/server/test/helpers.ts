import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { createLocalBus } from '../plugins/event-bus.js';

/** A new, empty PostgreSQL database on the server at TEST_DATABASE_URL, dropped by `drop()`. */
export async function createScratchPostgres(serverUrl: string, prefix = 'station_test') {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh database for one test file: in-memory PGlite by default, or, when TEST_DATABASE_URL is set
 * (CI runs the suite again on the local PostgreSQL), a new database created for this file and dropped after.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ dataDir: 'memory://' });
  const scratch = await createScratchPostgres(serverUrl);
  const handle = await openDatabase({ dataDir: 'memory://', databaseUrl: scratch.url });
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'silent', ...overrides });
}

/** The whole app on a fresh database, for app.inject / injectWS. */
export async function createTestApp(
  overrides: Record<string, string> = {},
  options: Parameters<typeof buildApp>[1] = {},
) {
  const config = testConfig(overrides);
  const database = await createTestDatabase();
  const bus = createLocalBus();
  const app = await buildApp({ config, db: database.db, bus }, options);
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    bus,
    async close() {
      await app.close();
      await bus.close();
      await database.close();
    },
  };
}
