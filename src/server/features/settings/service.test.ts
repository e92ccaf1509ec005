import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { createTestDatabase } from '../../test/helpers.js';
import { writeSetting } from './repository.js';
import { createLocalBus } from '../../plugins/event-bus.js';
import {
  STATION_SETTINGS_KEY,
  openStationSettings,
  ensureSourcePassword,
  rotateSourcePassword,
  SIGNING_SECRET_KEY,
  signingSecret,
  sourcePassword,
} from './service.js';

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

describe('signing secret', () => {
  it('is made once, 32 random bytes, and every later call reads the same', async () => {
    const [a, b] = await Promise.all([signingSecret(database.db), signingSecret(database.db)]);
    expect(a).toHaveLength(32);
    expect(b.equals(a)).toBe(true);
    expect((await signingSecret(database.db)).equals(a)).toBe(true);
  });

  it('replaces a damaged stored value', async () => {
    await writeSetting(database.db, SIGNING_SECRET_KEY, { not: 'a secret' });
    const replaced = await signingSecret(database.db);
    expect(replaced).toHaveLength(32);
    expect((await signingSecret(database.db)).equals(replaced)).toBe(true);
  });
});

describe('station settings saved before line breaks were refused', () => {
  it('are read back on one line, not dropped for the defaults', async () => {
    await writeSetting(database.db, STATION_SETTINGS_KEY, {
      name: 'Grace\nRadio',
      networkName: 'Grace\u2028Network',
      networkUrl: 'https://grace.example',
      timeZone: 'Europe/London',
    });
    const defaults = {
      name: 'Env Radio',
      networkName: 'Env',
      networkUrl: 'https://env.example',
      timeZone: 'UTC',
    };
    const store = await openStationSettings(database.db, createLocalBus(), defaults);
    expect(store.current()).toMatchObject({
      name: 'Grace Radio',
      networkName: 'Grace Network',
      timeZone: 'Europe/London',
    });
    store.close();
  });
});
