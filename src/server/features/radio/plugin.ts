import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RadioEngine } from '../../radio/engine.js';
import { ExternalStationSource } from '../../radio/external-source.js';
import { SwitchableSource } from '../../radio/switchable-source.js';
import { openCountryTally } from '../listeners/service.js';
import { streamSource } from '../settings/service.js';
import { radioRoutes } from './routes.js';
import { liveFiguresReader, radioStorage, type LiveFigures } from './service.js';
import { sourceRoutes } from './source-routes.js';
import { streamRoutes } from './stream-routes.js';
import { streamSourceRoutes } from './stream-source-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built-in broadcaster (AutoDJ, live input, listeners); idle when an external station is configured. */
    radio: RadioEngine;
    /** Listeners now, today's peak and hours listened today. */
    radioFigures: () => Promise<LiveFigures>;
    /** Listeners now, on every app instance (the station elsewhere's own count when it is on air). */
    listenersNow: () => number;
    /** The station elsewhere that is on air (`icecast:URL` | `url:URL`), or undefined for the built-in one. */
    streamSource: () => string | undefined;
  }
}

/**
 * The radio: engine, the /stream mount and live input, and /api/radio. Built with the app, started by
 * createStation (tests start it when they need audio); stopping the app ends every listener's response.
 */
export default fp(
  async function radio(app: FastifyInstance) {
    const engine = new RadioEngine({
      config: app.config,
      storage: radioStorage(app.db, app.config),
      log: app.log,
      station: () => app.station(),
    });
    const log = {
      warn: (message: string) => app.log.warn(message),
      info: (message: string) => app.log.info(message),
    };
    const sourceFor = (value: string | undefined) =>
      value
        ? new ExternalStationSource({
            streamSource: value,
            statusUrl: value === app.config.streamSource ? app.config.streamStatusUrl : undefined,
            stationName: app.station().name,
            log,
          })
        : engine;
    // The Station tab's choice, else STREAM_SOURCE; changed while the station runs, without a restart.
    let chosen = await streamSource(app.db, app.config);
    const onAir = new SwitchableSource(sourceFor(chosen));
    const source = () => onAir.active;
    app.decorate('radio', engine);
    app.decorate('nowPlaying', onAir);
    app.decorate('streamSource', () => chosen);
    // Each instance's own /stream listeners, summed over every instance through the shared counts.
    const ownListeners = app.sharedCounts.count('listening', () =>
      chosen ? 0 : engine.nowPlaying().listeners,
    );
    const listenersNow = () => (chosen ? source().nowPlaying().listeners : ownListeners());
    app.decorate('listenersNow', listenersNow);
    const countries = await openCountryTally({
      file: app.config.geoipDb,
      dataDir: app.config.dataDir,
      timeZone: () => app.station().timeZone,
      log,
    });
    const liveFigures = liveFiguresReader(
      app.db,
      engine,
      listenersNow,
      () => app.station().timeZone,
      countries,
    );
    app.decorate('radioFigures', liveFigures);
    app.addHook('preClose', async () => {
      await onAir.stop();
      if (onAir.active !== engine) await engine.stop();
    });
    await app.register(streamRoutes, { engine, source, onListener: (address) => countries.add(address) });
    await app.register(sourceRoutes, { engine });
    await app.register(radioRoutes, { prefix: '/api', source, listenersNow, liveFigures });
    await app.register(streamSourceRoutes, {
      prefix: '/api',
      current: () => chosen,
      async apply(value) {
        chosen = value;
        await onAir.switchTo(sourceFor(value));
      },
    });
  },
  { name: 'radio' },
);
