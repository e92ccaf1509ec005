import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RadioEngine } from '../../radio/engine.js';
import { externalSourceFromConfig } from '../../radio/external-source.js';
import type { NowPlayingSource } from '../../radio/now-playing-source.js';
import { radioRoutes } from './routes.js';
import { liveFiguresReader, radioStorage, type LiveFigures } from './service.js';
import { sourceRoutes } from './source-routes.js';
import { streamRoutes } from './stream-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built-in broadcaster (AutoDJ, live input, listeners); idle when an external station is configured. */
    radio: RadioEngine;
    /** Listeners now, today's peak and hours listened today. */
    radioFigures: () => Promise<LiveFigures>;
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
    const external = externalSourceFromConfig(app.config, {
      warn: (message) => app.log.warn(message),
      info: (message) => app.log.info(message),
    });
    const source: NowPlayingSource = external ?? engine;
    app.decorate('radio', engine);
    app.decorate('nowPlaying', source);
    const liveFigures = liveFiguresReader(app.db, engine, () => source, () => app.station().timeZone);
    app.decorate('radioFigures', liveFigures);
    app.addHook('preClose', async () => {
      await source.stop();
      if (source !== engine) await engine.stop();
    });
    await app.register(streamRoutes, { engine, source: () => source });
    await app.register(sourceRoutes, { engine });
    await app.register(radioRoutes, { prefix: '/api', source: () => source, liveFigures });
  },
  { name: 'radio' },
);
