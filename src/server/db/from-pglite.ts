import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';
import { countRows, dumpDatabase, restoreDatabase } from './dump.js';
import * as schema from './schema.js';

const migrationsFolder = fileURLToPath(new URL('../../../src/server/db/migrations', import.meta.url));

/** DATA_DIR/db from stations before the embedded server (PGlite), not yet moved; undefined otherwise. */
export function earlierPgliteDir(dataDir: string): string | undefined {
  const dir = path.resolve(dataDir, 'db');
  return existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

/**
 * Copies an earlier PGlite database into the new server once, then renames its folder to db.pglite-moved
 * (kept, never deleted). A new server that already holds data is left alone and the old folder kept.
 */
export async function moveFromPglite(dir: string, target: Database, onLog?: (line: string) => void) {
  if ((await countRows(target)) > 0) {
    onLog?.(`${dir} (the earlier embedded database) was left as it is: the new one already holds data`);
    return;
  }
  // Loaded only for this one-time copy, never by a station that has none to move.
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite(dir);
  try {
    const source = drizzle(client, { schema }) as unknown as Database;
    await migrate(source as never, { migrationsFolder });
    const lines: string[] = [];
    await dumpDatabase(source, (line) => void lines.push(line));
    await restoreDatabase(target, lines, { force: false });
  } finally {
    await client.close();
  }
  renameSync(dir, `${dir}.pglite-moved`);
  onLog?.(
    `moved the earlier embedded database from ${dir} into the new server; the old folder is now ${dir}.pglite-moved`,
  );
}
