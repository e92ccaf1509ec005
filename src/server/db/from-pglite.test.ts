import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { emailSubscribers, featuredContent } from './schema.js';
import * as schema from './schema.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'station-earlier-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('copies an earlier PGlite data directory into the embedded server once, and keeps the old folder', async () => {
  const earlier = new PGlite(path.join(dataDir, 'db'));
  const old = drizzle(earlier, { schema });
  await migrate(old, { migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)) });
  await old
    .insert(featuredContent)
    .values({ title: 'Compline', description: 'Night prayer', type: 'devotion' });
  await old.insert(emailSubscribers).values({ email: 'anna@example.org' });
  await earlier.close();

  const handle = await openDatabase({ dataDir });
  try {
    expect(handle.kind).toBe('embedded');
    expect((await handle.db.select().from(featuredContent)).map((row) => row.title)).toEqual(['Compline']);
    expect((await handle.db.select().from(emailSubscribers)).map((row) => row.email)).toEqual([
      'anna@example.org',
    ]);
  } finally {
    await handle.close();
  }
  expect(existsSync(path.join(dataDir, 'db'))).toBe(false);
  expect(existsSync(path.join(dataDir, 'db.pglite-moved', 'PG_VERSION'))).toBe(true);
}, 60_000);
