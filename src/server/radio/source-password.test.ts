import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { rotateSourcePassword } from '../features/settings/station-settings.js';
import { createTestDatabase } from '../test/helpers.js';
import { basicAuthMatches, ensureSourcePassword, sourcePassword } from './source-password.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

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

  it.each([
    [basic('source', 'secret-pw'), true],
    [basic('source', 'secret-px'), false],
    [basic('source', 'secret-pw-longer'), false],
    [basic('admin', 'secret-pw'), false],
    [basic('source', ''), false],
    [`Bearer ${Buffer.from('source:secret-pw').toString('base64')}`, false],
    ['Basic', false],
    ['Basic ###', false],
    [Buffer.from('source:secret-pw').toString('base64'), false],
    [undefined, false],
  ])('checks %s -> %s', (header, ok) => {
    expect(basicAuthMatches(header, 'secret-pw')).toBe(ok);
  });

  it('never lets anyone in when no password exists', () => {
    expect(basicAuthMatches(basic('source', ''), null)).toBe(false);
  });
});
