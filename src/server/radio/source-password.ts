// Owns: the station's own source password: Basic credentials read and compared in constant time.
// Must not: store or look up passwords (its callers hand them in) nor decide a presenter's slot.
import { timingSafeEqual } from 'node:crypto';

/** The user name Icecast sources send with the station's own source password. */
export const STATION_SOURCE_USER = 'source';

/** The user and password of an `Authorization: Basic` header, or null when it is not one. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares two secrets in constant time for their length (an empty or missing expected one never matches). */
export function sameSecret(given: string, expected: string | null): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks an `Authorization: Basic` header against `source:<password>`, the station's own source password. */
export function basicAuthMatches(header: string | undefined, password: string | null): boolean {
  const credentials = basicCredentials(header);
  return (
    credentials !== null &&
    credentials.user === STATION_SOURCE_USER &&
    sameSecret(credentials.password, password)
  );
}
