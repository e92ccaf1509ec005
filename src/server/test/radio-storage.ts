import { listenerMinutes } from '../db/schema.js';
import type { Database } from '../db/client.js';

// Engine tests store through the same features the station uses, and read back what was stored.
export { radioStorage } from '../features/radio/service.js';

export function storedListenerMinutes(db: Database) {
  return db.select().from(listenerMinutes);
}
