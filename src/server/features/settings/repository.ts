import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/** The stored value of one settings key (undefined when never saved). */
export async function readSetting(db: Database, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

export async function writeSetting(db: Database, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/** Stores a value only when the key has none yet; true when this call stored it. */
export async function insertSettingIfAbsent(db: Database, key: string, value: unknown): Promise<boolean> {
  const inserted = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  return inserted.length > 0;
}
