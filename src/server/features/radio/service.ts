import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { RadioStorage } from '../../radio/storage.js';
import { listenerStats, recordMinute, startOfDay, type CountryTally } from '../listeners/service.js';
import { allowPrivateNetworkSource, audioSettingsReader, sourcePassword } from '../settings/service.js';
import { checkedFetch } from './stream-source-check.js';

export { RefusedSourceAddress } from './source-address.js';

/**
 * `fetch` (GET or POST) to an address staff typed in, as the Station tab allows it: never the station itself,
 * and no private or link-local address unless staff allowed a private network source. The setting is read at
 * each call. Throws RefusedSourceAddress for an address it will not ask.
 */
export function stationCheckedFetch(app: FastifyInstance) {
  return checkedFetch(async () => {
    const listening = app.server.address() as AddressInfo | null;
    return {
      allowPrivateNetwork: await allowPrivateNetworkSource(app.db),
      ownOrigins: app.config.publicUrl ? [app.config.publicUrl] : [],
      ownPorts: [app.config.port, ...(listening?.port ? [listening.port] : [])],
    };
  });
}

/**
 * The engine's storage: live-input password and audio settings in settings, figures in listener minutes.
 */
export function radioStorage(db: Database, config: Pick<Config, 'sourcePassword'>): RadioStorage {
  return {
    sourcePassword: () => sourcePassword(db, config),
    audioSettings: audioSettingsReader(db),
    recordMinute: (figures) => recordMinute(db, figures),
    startOfDay,
  };
}

/** Stored figures change once a minute and every listener polls them, so they are kept a little while. */
const STORED_FIGURES_MS = 10_000;

export interface LiveFigures {
  listeners: number;
  peakToday: number;
  hoursToday: number;
  /** Countries listeners came from today; null without a GeoIP database. */
  countriesToday: number | null;
}

/**
 * Listeners now, today's peak, hours listened and countries today: the broadcaster's live count and peak, the
 * countries its listeners came from, the rest from the stored minutes of the station's day.
 */
export function liveFiguresReader(
  db: Database,
  /** Today's peak as the engine measured it (on a web instance, as the broadcaster told it). */
  peakToday: () => number,
  /** Listeners now, on every app instance and relay. */
  listenersNow: () => number,
  timeZone: () => string,
  countries: CountryTally,
): () => Promise<LiveFigures> {
  let stored: { at: number; peakToday: number; hoursToday: number } | undefined;
  return async () => {
    const listeners = listenersNow();
    if (!stored || Date.now() - stored.at > STORED_FIGURES_MS) {
      const day = await listenerStats(db, { days: 1, timeZone: timeZone() });
      stored = { at: Date.now(), peakToday: day.peakToday, hoursToday: day.hoursToday };
    }
    return {
      listeners,
      peakToday: Math.max(stored.peakToday, peakToday(), listeners),
      hoursToday: stored.hoursToday,
      countriesToday: countries.today(),
    };
  };
}
