import { timingSafeEqual } from 'node:crypto';

/** Checks an `Authorization: Basic` header against `source:<password>`. */
export function basicAuthMatches(header: string | undefined, password: string | null): boolean {
  if (!header || !password) return false;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const user = decoded.slice(0, colon);
  const given = Buffer.from(decoded.slice(colon + 1));
  const expected = Buffer.from(password);
  return user === 'source' && given.length === expected.length && timingSafeEqual(given, expected);
}
