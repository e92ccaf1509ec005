import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { settings } from '../db/schema.js';

/** Settings key of the live-input password (the same key the Station settings rotate). */
export const SOURCE_PASSWORD_KEY = 'source_password';

/**
 * The password encoders must send as `source:<password>`: the stored one (staff rotate it in the Station
 * tab), else SOURCE_PASSWORD. Read on every attempt so a rotation applies at once.
 */
export async function sourcePassword(
  db: Database,
  config: Pick<Config, 'sourcePassword'>,
): Promise<string | null> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, SOURCE_PASSWORD_KEY));
  if (typeof row?.value === 'string' && row.value.length > 0) return row.value;
  return config.sourcePassword ?? null;
}

/** First start without SOURCE_PASSWORD: generates and stores one; returns it only when it was just made. */
export async function ensureSourcePassword(
  db: Database,
  config: Pick<Config, 'sourcePassword'>,
): Promise<string | undefined> {
  if (await sourcePassword(db, config)) return undefined;
  const generated = randomBytes(12).toString('base64url');
  const inserted = await db
    .insert(settings)
    .values({ key: SOURCE_PASSWORD_KEY, value: generated })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  return inserted.length ? generated : undefined;
}

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
