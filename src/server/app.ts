import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { StationInfo } from '../common/station.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import clientPlugin from './plugins/client.js';
import errorsPlugin from './plugins/errors.js';
import type { EventBus } from './plugins/event-bus.js';
import securityPlugin from './plugins/security.js';
import { stationRoutes } from './features/station/routes.js';
import { programRoutes } from './features/programs/routes.js';

export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    bus: EventBus;
    station(): StationInfo;
  }
}

/** Builds the whole station as a Fastify instance; main.ts listens, tests inject. */
export async function buildApp(deps: AppDeps, options: { logger?: boolean | object } = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', deps.config);
  app.decorate('db', deps.db);
  app.decorate('bus', deps.bus);
  app.decorate('station', () => ({ ...deps.config.station }));

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { extraMediaOrigins: externalOrigins(deps.config) });
  await app.register(compress, { global: true, threshold: 1024, brotliOptions: { params: { 1: 4 } } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  await app.register(stationRoutes, { prefix: '/api' });
  await app.register(programRoutes, { prefix: '/api' });

  await app.register(clientPlugin, { getStation: () => app.station(), publicUrl: deps.config.publicUrl });
  return app as unknown as FastifyInstance;
}

function externalOrigins(config: Config): string[] {
  if (!config.streamSource) return [];
  return [new URL(config.streamSource.replace(/^(icecast|url):/, '')).origin];
}
