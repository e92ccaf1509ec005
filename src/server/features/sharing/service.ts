import type { ShareChannel, ViralStats } from '../../../common/sharing.js';
import type { Database } from '../../db/client.js';
import { startOfDay } from '../listeners/service.js';
import type { LiveFigures } from '../radio/service.js';
import { countShares, insertShareEvent } from './repository.js';

export const recordShare = (db: Database, channel: ShareChannel) => insertShareEvent(db, channel);

/**
 * The 'Viral Impact' figures: live ones from the broadcaster, shares counted here. Countries need a GeoIP
 * database the station may be given (GEOIP_DB); without one that figure is not measured (null) and the card
 * says so.
 */
export async function viralStats(
  db: Database,
  live: LiveFigures,
  options: { timeZone: string; now?: Date },
): Promise<ViralStats> {
  const [sharesToday, sharesTotal] = await Promise.all([
    countShares(db, startOfDay(options.now ?? new Date(), options.timeZone)),
    countShares(db),
  ]);
  return {
    listenersNow: live.listeners,
    peakToday: live.peakToday,
    sharesToday,
    sharesTotal,
    hoursListenedToday: live.hoursToday,
    countries: live.countriesToday,
  };
}
