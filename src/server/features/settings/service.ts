import { randomBytes } from 'node:crypto';
import { stationSettingsSchema, type StationSettings } from '../../../common/admin.js';
import {
  audioSettingsSchema,
  DEFAULT_AUDIO_SETTINGS,
  type AudioSettings,
} from '../../../common/audio-settings.js';
import { STREAM_BITRATES } from '../../../common/radio.js';
import type { StationInfo } from '../../../common/station.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { insertSettingIfAbsent, readSetting, writeSetting } from './repository.js';

export const STATION_SETTINGS_KEY = 'station';
/** Settings key of the live-input password (rotated in the Station tab). */
export const SOURCE_PASSWORD_KEY = 'source_password';
/** Settings key of the stream source chosen in the Station tab: `icecast:URL`, `url:URL`, or null (built-in). */
export const STREAM_SOURCE_KEY = 'stream_source';
/** Settings key of the Station tab's 'allow a private network source' (true, or absent: not allowed). */
export const STREAM_SOURCE_PRIVATE_NETWORK_KEY = 'stream_source_private_network';
/** Settings key of the chat's blocked words and phrases (edited in the Chat tab). */
export const CHAT_BLOCKED_WORDS_KEY = 'chat_blocked_words';
/** Settings key of the secret that signs the links the station e-mails (newsletter confirm, unsubscribe). */
export const SIGNING_SECRET_KEY = 'signing_secret';
/** Settings key of the Station tab's audio settings (loudness, true peak, crossfade, bitrates on). */
export const AUDIO_SETTINGS_KEY = 'audio';
const CHANGED_TOPIC = 'station_settings_changed';

/**
 * Names saved before line breaks and control characters were refused (they broke the stream's headers)
 * are read back with those characters as spaces, rather than dropped for the environment's defaults.
 */
function onOneLine(stored: unknown): unknown {
  if (!stored || typeof stored !== 'object') return stored;
  const mended: Record<string, unknown> = { ...stored };
  for (const field of ['name', 'networkName', 'networkUrl']) {
    const value = mended[field];
    if (typeof value === 'string') mended[field] = value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ');
  }
  return mended;
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
    const stored = await readSetting(db, STATION_SETTINGS_KEY);
    const saved = stationSettingsSchema.safeParse(stored);
    const mended = saved.success ? saved : stationSettingsSchema.safeParse(onOneLine(stored));
    cached = mended.success ? mended.data : { ...defaults };
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
 * (through sourcePassword below), so it applies at once; encoders must be updated with it.
 */
export async function rotateSourcePassword(db: Database): Promise<string> {
  const sourcePassword = randomBytes(18).toString('base64url');
  await writeSetting(db, SOURCE_PASSWORD_KEY, sourcePassword);
  return sourcePassword;
}

/**
 * The password encoders must send as `source:<password>`: the stored one (staff rotate it in the Station
 * tab), else SOURCE_PASSWORD. Read on every attempt so a rotation applies at once.
 */
export async function sourcePassword(
  db: Database,
  config: Pick<Config, 'sourcePassword'>,
): Promise<string | null> {
  const value = await readSetting(db, SOURCE_PASSWORD_KEY);
  if (typeof value === 'string' && value.length > 0) return value;
  return config.sourcePassword ?? null;
}

/** First start without SOURCE_PASSWORD: generates and stores one; returns it only when it was just made. */
export async function ensureSourcePassword(
  db: Database,
  config: Pick<Config, 'sourcePassword'>,
): Promise<string | undefined> {
  if (await sourcePassword(db, config)) return undefined;
  const generated = randomBytes(12).toString('base64url');
  return (await insertSettingIfAbsent(db, SOURCE_PASSWORD_KEY, generated)) ? generated : undefined;
}

const isSecret = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43,}$/.test(value);

/**
 * The station's signing secret: 32 random bytes made the first time any instance asks, then kept in the
 * settings table (and so in backups: links already e-mailed keep working after a restore).
 */
export async function signingSecret(db: Database): Promise<Buffer> {
  const stored = await readSetting(db, SIGNING_SECRET_KEY);
  if (isSecret(stored)) return Buffer.from(stored, 'base64url');
  const fresh = randomBytes(32).toString('base64url');
  // A damaged value is replaced; otherwise the first instance to store one wins and the others read it.
  if (stored !== undefined) await writeSetting(db, SIGNING_SECRET_KEY, fresh);
  else await insertSettingIfAbsent(db, SIGNING_SECRET_KEY, fresh);
  const kept = await readSetting(db, SIGNING_SECRET_KEY);
  if (!isSecret(kept)) throw new Error('The signing secret could not be stored');
  return Buffer.from(kept, 'base64url');
}

/** Whether `once` has run `key`'s work on this station. */
export async function ranOnce(db: Database, key: string): Promise<boolean> {
  return (await readSetting(db, key)) !== undefined;
}

/** Runs `work` once per station: the marker key is written in the same transaction as the work. */
export async function once(
  db: Database,
  key: string,
  work: (tx: Database) => Promise<void>,
): Promise<boolean> {
  if ((await readSetting(db, key)) !== undefined) return false;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await work(t);
    await writeSetting(t, key, { at: new Date().toISOString() });
  });
  return true;
}

/**
 * The stream source staff chose in the Station tab (null: the built-in broadcaster), or STREAM_SOURCE when
 * they never chose one.
 */
export async function streamSource(
  db: Database,
  config: Pick<Config, 'streamSource'>,
): Promise<string | undefined> {
  const saved = (await readSetting(db, STREAM_SOURCE_KEY)) as { streamSource?: unknown } | undefined;
  if (saved === undefined) return config.streamSource;
  return typeof saved.streamSource === 'string' ? saved.streamSource : undefined;
}

export async function saveStreamSource(db: Database, value: string | null): Promise<void> {
  await writeSetting(db, STREAM_SOURCE_KEY, { streamSource: value });
}

/** Whether a stream source may be on a private network (the church's own Icecast); off until staff allow it. */
export async function allowPrivateNetworkSource(db: Database): Promise<boolean> {
  return (await readSetting(db, STREAM_SOURCE_PRIVATE_NETWORK_KEY)) === true;
}

export async function saveAllowPrivateNetworkSource(db: Database, allow: boolean): Promise<void> {
  await writeSetting(db, STREAM_SOURCE_PRIVATE_NETWORK_KEY, allow);
}

/** The chat's blocked words and phrases, as staff saved them (none until they do). */
export async function chatBlockedWords(db: Database): Promise<string[]> {
  const value = await readSetting(db, CHAT_BLOCKED_WORDS_KEY);
  return Array.isArray(value) ? value.filter((w): w is string => typeof w === 'string') : [];
}

export async function saveChatBlockedWords(db: Database, words: string[]): Promise<void> {
  await writeSetting(db, CHAT_BLOCKED_WORDS_KEY, words);
}

/** The station's audio settings: what staff saved, else the defaults (also for a stored value gone bad). */
export async function audioSettings(db: Database): Promise<AudioSettings> {
  const stored = await readSetting(db, AUDIO_SETTINGS_KEY);
  // Saved before a setting existed: that setting's default, the rest as saved.
  const saved = audioSettingsSchema.safeParse(
    stored && typeof stored === 'object' ? { ...DEFAULT_AUDIO_SETTINGS, ...stored } : stored,
  );
  return saved.success
    ? saved.data
    : { ...DEFAULT_AUDIO_SETTINGS, bitrates: [...DEFAULT_AUDIO_SETTINGS.bitrates] };
}

/** Saved with the bitrates highest first, as the quality table lists them; the engine reads it per track. */
export async function saveAudioSettings(db: Database, next: AudioSettings): Promise<AudioSettings> {
  const saved = { ...next, bitrates: STREAM_BITRATES.filter((kbps) => next.bitrates.includes(kbps)) };
  await writeSetting(db, AUDIO_SETTINGS_KEY, saved);
  return saved;
}

/**
 * The engine's reader, asked before each track so a change applies at the next one: a database that cannot
 * be read keeps the settings last read rather than going back to the defaults.
 */
export function audioSettingsReader(db: Database): () => Promise<AudioSettings> {
  let last = DEFAULT_AUDIO_SETTINGS;
  return async () => {
    last = await audioSettings(db).catch(() => last);
    return last;
  };
}

/** Settings key of how long the as-run log and listener sessions are kept, in days (issue 45). */
const REPORT_RETENTION_KEY = 'report_retention_days';

export async function reportRetentionDays(db: Database, fallback: number): Promise<number> {
  const saved = await readSetting(db, REPORT_RETENTION_KEY);
  return typeof saved === 'number' && Number.isInteger(saved) && saved > 0 ? saved : fallback;
}

export async function saveReportRetentionDays(db: Database, days: number): Promise<void> {
  await writeSetting(db, REPORT_RETENTION_KEY, days);
}
