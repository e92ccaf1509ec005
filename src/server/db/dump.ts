import { sql } from 'drizzle-orm';
import type { Database } from './database.js';

/** First line of a dump: what made it, so a restore can refuse one from a newer station. */
export interface DumpHeader {
  format: 'radio-station-dump';
  version: 1;
  migrations: number;
  createdAt: string;
}
interface TableChunk {
  table: string;
  rows: unknown[];
}

const BATCH = 500;

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows: Row[] }).rows ?? []);

/** Tables kept by triggers from the others (schema.ts, catalogueChanges): not data, never dumped or counted. */
const DERIVED = new Set(['catalogue_changes']);

/** The station's tables, parents before children (foreign keys), so rows insert in order. */
async function tablesInOrder(db: Database): Promise<string[]> {
  const tables = rowsOf(
    await db.execute(
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    ),
  )
    .map((row) => String(row.name))
    .filter((name) => !DERIVED.has(name));
  const edges = rowsOf(
    await db.execute(sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`),
  ).map((row) => ({
    child: String(row.child).replace(/"/g, ''),
    parent: String(row.parent).replace(/"/g, ''),
  }));
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent, path);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

async function appliedMigrations(db: Database): Promise<number> {
  const rows = rowsOf(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
  return Number(rows[0]?.n ?? 0);
}

/**
 * Writes every row of every table as JSON lines (a header, then chunks of rows in PostgreSQL's own JSON
 * form), from one consistent snapshot. Works the same on the embedded server, PGlite and DATABASE_URL.
 */
export async function dumpDatabase(db: Database, write: (line: string) => Promise<void> | void) {
  await db.transaction(
    async (tx) => {
      const t = tx as unknown as Database;
      const header: DumpHeader = {
        format: 'radio-station-dump',
        version: 1,
        migrations: await appliedMigrations(t),
        createdAt: new Date().toISOString(),
      };
      await write(JSON.stringify(header));
      for (const table of await tablesInOrder(t)) {
        for (let offset = 0; ; offset += BATCH) {
          const rows = rowsOf(
            await t.execute(
              sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t order by ctid limit ${BATCH} offset ${offset}`,
            ),
          ).map((row) => JSON.parse(String(row.row)) as unknown);
          if (rows.length === 0) break;
          await write(JSON.stringify({ table, rows } satisfies TableChunk));
          if (rows.length < BATCH) break;
        }
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export class RestoreError extends Error {}

/** Rows held by the station, all tables together; a restore onto a non-empty station needs `force`. */
export async function countRows(db: Database): Promise<number> {
  let total = 0;
  for (const table of await tablesInOrder(db)) {
    const rows = rowsOf(await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
    total += Number(rows[0]?.n ?? 0);
  }
  return total;
}

/**
 * Replaces every table's rows with the dump's, in one transaction (all or nothing), then moves each
 * sequence past the restored rows. The schema itself comes from the migrations, already applied.
 */
export async function restoreDatabase(
  db: Database,
  lines: AsyncIterable<string> | Iterable<string>,
  options: { force: boolean },
) {
  const ours = await appliedMigrations(db);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const tables = await tablesInOrder(t);
    if (!options.force && (await countRows(t)) > 0) {
      throw new RestoreError('This station already holds data: restore with --force to replace all of it.');
    }
    let header: DumpHeader | undefined;
    for await (const line of lines) {
      if (!line.trim()) continue;
      if (!header) {
        header = JSON.parse(line) as DumpHeader;
        if (header.format !== 'radio-station-dump')
          throw new RestoreError('This file is not a station backup.');
        if (header.migrations > ours) {
          throw new RestoreError('This backup was made by a newer version of the station: update first.');
        }
        await t.execute(sql.raw(`truncate ${tables.map((name) => `"${name}"`).join(', ')} cascade`));
        continue;
      }
      const chunk = JSON.parse(line) as TableChunk;
      if (!tables.includes(chunk.table))
        throw new RestoreError(`The backup names an unknown table ${chunk.table}.`);
      await t.execute(
        sql`insert into ${sql.identifier(chunk.table)} select * from json_populate_recordset(null::${sql.identifier(chunk.table)}, ${JSON.stringify(chunk.rows)}::json)`,
      );
    }
    if (!header) throw new RestoreError('This file is not a station backup.');
    const sequences = rowsOf(
      await t.execute(sql`select table_name as t, column_name as c from information_schema.columns
        where table_schema = 'public' and (column_default like 'nextval%' or is_identity = 'YES')`),
    );
    for (const { t: table, c: column } of sequences) {
      const name = `"${String(table)}"`;
      const col = `"${String(column)}"`;
      await t.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${name}', '${String(column)}'), coalesce(max(${col}), 1), max(${col}) is not null) from ${name}`,
        ),
      );
    }
  });
}
