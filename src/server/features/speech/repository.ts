import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/** Settings key of the Captions tab's captions from speech. */
export const SPEECH_SETTINGS_KEY = 'speech_captions';

export async function readSpeechSettings(db: Database): Promise<unknown> {
  const [row] = await db.select().from(settings).where(eq(settings.key, SPEECH_SETTINGS_KEY));
  return row?.value;
}

export async function writeSpeechSettings(db: Database, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key: SPEECH_SETTINGS_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}
