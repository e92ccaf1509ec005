import { sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { catalogueChanges } from './schema.js';

/**
 * What names the library and the playlists as they are now: the change counter's row (schema.ts,
 * catalogueChanges) and the transaction that wrote it last, so a restore that rewrites the row is a change
 * too. One tiny read.
 */
export async function catalogueVersion(db: Database): Promise<string> {
  const [row] = await db
    .select({ version: catalogueChanges.version, writtenBy: sql<string>`xmin::text` })
    .from(catalogueChanges);
  return row ? `${row.writtenBy}:${row.version}` : 'none';
}

/**
 * `read` wrapped so that it runs again only when the library or the playlists changed since its last
 * answer (by any writer: another instance, a restore, the demo seed). The version is read before the data,
 * so a change committed in between makes the next call read again rather than keep a stale answer.
 */
export function whileCatalogueUnchanged<T>(db: Database, read: () => Promise<T>): () => Promise<T> {
  let kept: { version: string; value: Promise<T> } | undefined;
  return async () => {
    const version = await catalogueVersion(db);
    if (kept?.version !== version) {
      const value = read();
      kept = { version, value };
      // A failed read is not kept: the next call tries again.
      value.catch(() => kept?.value === value && (kept = undefined));
    }
    return kept.value;
  };
}
