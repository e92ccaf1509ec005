import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/** The station's database, whichever PostgreSQL is behind it (embedded, PGlite in tests, DATABASE_URL). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
