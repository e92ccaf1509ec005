// Owns: the storage interfaces the engine is handed: source password, listener minutes, audio settings.
// Must not: reach the database; the features that own the tables implement them.
import type { AudioSettings } from '../../common/audio-settings.js';
import type { MinuteFigures } from './listener-stats.js';

export interface SourcePasswordStore {
  /** The live-input password, read on every source connection so a rotation applies at once. */
  sourcePassword(): Promise<string | null>;
}

export interface ListenerMinutesStore {
  /** Stores one closed minute's listener figures. */
  recordMinute(figures: MinuteFigures): Promise<void>;
  /** Midnight of `now`'s date in the station's time zone: when the day's peak starts afresh. */
  startOfDay(now: Date, timeZone: string): Date;
}

export interface AudioSettingsStore {
  /**
   * The Station tab's loudness target, true-peak ceiling, crossfade and bitrates on; read before each track
   * so a change applies at the next one.
   */
  audioSettings(): Promise<AudioSettings>;
}

/**
 * What the engine keeps between restarts, handed in where it is built: the features that own the
 * tables implement these, so the engine never reaches the database itself.
 */
export type RadioStorage = SourcePasswordStore & ListenerMinutesStore & AudioSettingsStore;
