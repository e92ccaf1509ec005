import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openCountryTally } from './countries.js';

const fixture = path.join(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../test/geoip/test-countries.mmdb',
);
const warnings: string[] = [];
const log = { warn: (message: string) => void warnings.push(message) };

describe('the countries listeners came from today', () => {
  it('counts distinct countries by the station day, IPv4 (also IPv4-mapped) and IPv6, and nothing else', async () => {
    let now = new Date('2026-11-23T10:00:00Z');
    const tally = await openCountryTally({
      file: fixture,
      dataDir: '/nowhere',
      timeZone: () => 'America/Chicago',
      log,
      now: () => now,
    });
    expect(tally.today()).toBe(0);
    for (const address of [
      '198.51.100.1',
      '::ffff:198.51.100.9',
      '203.0.113.5',
      '2001:db8::7',
      '10.0.0.1',
      'junk',
    ])
      tally.add(address);
    // Brazil, Kenya and the Philippines; a private address and garbage have no country.
    expect(tally.today()).toBe(3);
    now = new Date('2026-11-24T05:59:00Z'); // still the 23rd in Chicago
    expect(tally.today()).toBe(3);
    now = new Date('2026-11-24T06:01:00Z');
    expect(tally.today()).toBe(0);
  });

  it('is not measured without a database, and says why when the file cannot be read', async () => {
    const none = await openCountryTally({ file: undefined, dataDir: '/nowhere', timeZone: () => 'UTC', log });
    none.add('198.51.100.1');
    expect(none.today()).toBeNull();
    const broken = await openCountryTally({
      file: '/nowhere/x.mmdb',
      dataDir: '/',
      timeZone: () => 'UTC',
      log,
    });
    expect(broken.today()).toBeNull();
    expect(warnings.at(-1)).toMatch(/could not be read.*not measured/);
  });
});
