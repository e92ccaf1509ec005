import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { createTestDatabase } from '../../test/helpers.js';
import { ensureSourcePassword, rotateSourcePassword, sourcePassword } from './service.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('live-input password', () => {
  it('uses SOURCE_PASSWORD and generates nothing while no password is stored', async () => {
    expect(await ensureSourcePassword(database.db, { sourcePassword: 'from-the-env' })).toBeUndefined();
    expect(await sourcePassword(database.db, { sourcePassword: 'from-the-env' })).toBe('from-the-env');
  });

  it('generates one at first start when unset, once, and a rotation applies at once', async () => {
    const generated = await ensureSourcePassword(database.db, {});
    expect(generated).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(await ensureSourcePassword(database.db, {})).toBeUndefined();
    expect(await sourcePassword(database.db, {})).toBe(generated);
    const rotated = await rotateSourcePassword(database.db);
    expect(await sourcePassword(database.db, { sourcePassword: 'from-the-env' })).toBe(rotated);
  });
});
