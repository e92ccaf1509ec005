import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { adminUsers, featuredContent, programs } from './db/schema.js';
import { verifyPassword } from './features/accounts/service.js';
import { createStation } from './start.js';
import { createScratchPostgres } from './test/helpers.js';

/** Where the station keeps its data in this run: a PGlite directory, or a scratch PostgreSQL database in CI. */
async function storage() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'station-'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  const scratch = serverUrl ? await createScratchPostgres(serverUrl) : undefined;
  return {
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(scratch ? { DATABASE_URL: scratch.url } : {}) },
    async remove() {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('first start and restart', () => {
  let store: Awaited<ReturnType<typeof storage>>;
  beforeAll(async () => {
    store = await storage();
  });
  afterAll(() => store.remove());

  it('creates admin with a random password once, seeds demo content once, and keeps data across a restart', async () => {
    const first = await createStation(loadConfig(store.env));
    expect(first.firstSignIn?.username).toBe('admin');
    const password = first.firstSignIn?.password ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    const db = first.database.db;
    const [admin] = await db.select().from(adminUsers);
    expect(admin?.role).toBe('superuser');
    expect(await verifyPassword(admin!.passwordHash, password)).toBe(true);
    const [week] = await db.select({ n: count() }).from(programs);
    expect(week?.n).toBeGreaterThanOrEqual(7 * 4);
    const types = await db.selectDistinct({ type: featuredContent.type }).from(featuredContent);
    expect(types).toHaveLength(4);
    await db.update(programs).set({ title: 'Kept across restart' }).where(eq(programs.startTime, '06:00'));
    await first.stop();

    const second = await createStation(loadConfig(store.env));
    expect(second.firstSignIn).toBeUndefined();
    const kept = await second.database.db
      .select()
      .from(programs)
      .where(eq(programs.title, 'Kept across restart'));
    expect(kept.length).toBeGreaterThan(0);
    const [again] = await second.database.db.select({ n: count() }).from(programs);
    expect(again?.n).toBe(week?.n);
    await second.stop();
  });
});

describe('first start with ADMIN_USERNAME / ADMIN_PASSWORD and SEED_DEMO=false', () => {
  let store: Awaited<ReturnType<typeof storage>>;
  beforeAll(async () => {
    store = await storage();
  });
  afterAll(() => store.remove());

  it('creates that superuser and no demo content', async () => {
    const station = await createStation(
      loadConfig({
        ...store.env,
        ADMIN_USERNAME: 'pastor',
        ADMIN_PASSWORD: 'correct horse battery',
        SEED_DEMO: 'false',
      }),
    );
    expect(station.firstSignIn).toEqual({ username: 'pastor' });
    const users = await station.database.db.select().from(adminUsers);
    expect(users.map((u) => [u.username, u.role])).toEqual([['pastor', 'superuser']]);
    expect(await verifyPassword(users[0]!.passwordHash, 'correct horse battery')).toBe(true);
    const [none] = await station.database.db.select({ n: count() }).from(programs);
    expect(none?.n).toBe(0);
    await station.stop();
  });
});
