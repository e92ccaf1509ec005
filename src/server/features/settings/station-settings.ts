import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { stationSettingsSchema, type StationSettings } from '../../../common/admin.js';
import type { StationInfo } from '../../../common/station.js';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { SOURCE_PASSWORD_KEY } from '../../radio/source-password.js';

export const STATION_SETTINGS_KEY = 'station';
const CHANGED_TOPIC = 'station_settings_changed';

async function readSetting(db: Database, key: string): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

async function writeSetting(db: Database, key: string, value: unknown) {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

export interface StationSettingsStore {
  /** The station as every page shows it now: saved settings over the environment's defaults. */
  current(): StationInfo;
  save(next: StationSettings): Promise<StationInfo>;
  close(): void;
}

/**
 * Station name, network and time zone live in the settings table once staff change them; until
 * then the environment's values apply. Kept in memory so pages never wait on the database, and
 * reloaded when any instance announces a change on the bus (several instances behind Redis).
 */
export async function openStationSettings(
  db: Database,
  bus: EventBus,
  defaults: StationInfo,
): Promise<StationSettingsStore> {
  let cached: StationInfo = { ...defaults };
  const reload = async () => {
    const saved = stationSettingsSchema.safeParse(await readSetting(db, STATION_SETTINGS_KEY));
    cached = saved.success ? saved.data : { ...defaults };
  };
  await reload();
  const unsubscribe = bus.subscribe(CHANGED_TOPIC, () => {
    reload().catch(() => {
      // Keep the last good value; the next change or restart reads it again.
    });
  });
  return {
    current: () => ({ ...cached }),
    async save(next) {
      await writeSetting(db, STATION_SETTINGS_KEY, next);
      cached = { ...next };
      await bus.publish(CHANGED_TOPIC, { at: Date.now() });
      return { ...cached };
    },
    close: unsubscribe,
  };
}

/**
 * A new live-input password, stored where the radio engine reads it on every source connection
 * (radio/source-password.ts), so it applies at once; encoders must be updated with it.
 */
export async function rotateSourcePassword(db: Database): Promise<string> {
  const sourcePassword = randomBytes(18).toString('base64url');
  await writeSetting(db, SOURCE_PASSWORD_KEY, sourcePassword);
  return sourcePassword;
}
