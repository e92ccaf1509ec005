import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { earlierPgliteDir, moveFromPglite } from './from-pglite.js';
import * as schema from './schema.js';

import type { Database } from './database.js';

export type { Database };

export interface DatabaseHandle {
  db: Database;
  /** pglite: in memory (tests); embedded: the station's own PostgreSQL under DATA_DIR/pg; postgres: DATABASE_URL. */
  kind: 'pglite' | 'embedded' | 'postgres';
  close(): Promise<void>;
}

// The same relative path from src/server/db and from dist/server/db.
const migrationsFolder = fileURLToPath(new URL('../../../src/server/db/migrations', import.meta.url));

async function openPool(
  connectionString: string,
  sizing: { max: number; idleTimeoutMillis: number },
  onLog?: (line: string) => void,
) {
  const pool = new pg.Pool({ connectionString, ...sizing });
  // An idle connection lost (the embedded server restarting) must not crash the station; the pool reconnects.
  pool.on('error', (error) => onLog?.(`database connection lost: ${error.message}`));
  const db = drizzlePg(pool, { schema });
  await migratePg(db, { migrationsFolder });
  return { db: db as unknown as Database, pool };
}

/**
 * Opens the station's database and applies the committed migrations.
 * `DATABASE_URL` selects PostgreSQL; otherwise the station runs its own PostgreSQL server on
 * `dataDir/pg` (docs/decisions/011), or an in-memory PGlite when `dataDir` is `memory://` (tests).
 * Throws DatabaseOpenError (one line to show) when the data directory cannot be opened.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  onLog?: (line: string) => void;
  /** Embedded: share the server of a station already running on dataDir (backups) instead of refusing. */
  attach?: boolean;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { db, pool } = await openPool(
      options.databaseUrl,
      { max: 10, idleTimeoutMillis: 10_000 },
      options.onLog,
    );
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  if (options.dataDir === 'memory://') {
    // PGlite serves the tests only; a running station never loads it.
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite();
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const earlier = earlierPgliteDir(options.dataDir);
  const server = await startEmbeddedPostgres(options);
  try {
    // Each backend holds about 15 MB: two connections serve a small station, and an idle one closes after
    // 5 s so the machine gets its memory back (docs/decisions/011).
    const { db, pool } = await openPool(server.url, { max: 2, idleTimeoutMillis: 5_000 }, options.onLog);
    if (earlier) await moveFromPglite(earlier, db, options.onLog);
    return {
      db,
      kind: 'embedded',
      async close() {
        await pool.end();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
