import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { RadioStorage } from '../../radio/storage.js';
import { recordMinute, startOfDay } from '../listeners/service.js';
import { playOrder, sourcePassword } from '../settings/service.js';

/** The engine's storage: play order and live-input password in settings, figures in listener minutes. */
export function radioStorage(db: Database, config: Pick<Config, 'sourcePassword'>): RadioStorage {
  return {
    playOrder: () => playOrder(db),
    sourcePassword: () => sourcePassword(db, config),
    recordMinute: (figures) => recordMinute(db, figures),
    startOfDay,
  };
}
