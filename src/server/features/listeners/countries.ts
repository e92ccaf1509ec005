import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CountryResponse, Reader } from 'maxmind';
import { dateIn } from './station-day.js';

/** The file the station reads countries from when GEOIP_DB is not set: MaxMind's free country database. */
export const DEFAULT_GEOIP_FILE = 'GeoLite2-Country.mmdb';

/** How many countries the station's listeners came from today (the 'Viral Impact' card's figure). */
export interface CountryTally {
  /** A listener connected from this address: its country's ISO code, when known. */
  add(address: string): string | null;
  /** Countries seen since the start of the station's day; null when the station has no GeoIP database. */
  today(): number | null;
}

const NOT_MEASURED: CountryTally = { add: () => null, today: () => null };

/**
 * Reads a MaxMind country (or city) database with the `maxmind` library: the GEOIP_DB file, else
 * GeoLite2-Country.mmdb in the data folder when one was put there. Without one, the figure is not measured.
 * Only country codes are kept, a set per station day; no address is stored.
 */
export async function openCountryTally(options: {
  file: string | undefined;
  dataDir: string;
  timeZone: () => string;
  log: { warn(message: string): void };
  now?: () => Date;
}): Promise<CountryTally> {
  const file = options.file ?? path.join(options.dataDir, DEFAULT_GEOIP_FILE);
  if (!options.file && !existsSync(file)) return NOT_MEASURED;
  let reader: Reader<CountryResponse>;
  try {
    const maxmind = await import('maxmind');
    reader = await maxmind.open<CountryResponse>(file);
  } catch (error) {
    options.log.warn(
      `The GeoIP database ${file} could not be read (${String(error)}); countries are not measured.`,
    );
    return NOT_MEASURED;
  }
  const now = options.now ?? (() => new Date());
  let day = '';
  let countries = new Set<string>();
  const rollOver = () => {
    const today = dateIn(now(), options.timeZone());
    if (today !== day) {
      day = today;
      countries = new Set();
    }
  };
  return {
    add(address) {
      rollOver();
      const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
      try {
        const code = reader.get(plain)?.country?.iso_code;
        if (code) countries.add(code);
        return code ?? null;
      } catch {
        // Not an address the database can look up (a Unix socket, a test's fake): no country.
        return null;
      }
    },
    today() {
      rollOver();
      return countries.size;
    },
  };
}
