import { mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/client.js';
import { ensureFirstSuperuser } from './features/accounts/service.js';
import { markEarlierDemoContent, seedDemoContent } from './features/demo/service.js';
import { createLocalBus, createRedisBus, type EventBus } from './plugins/event-bus.js';
import { openSharedRedis, type SharedRedis } from './plugins/redis.js';
import { ensureSourcePassword } from './features/settings/service.js';

export interface Station {
  app: FastifyInstance;
  database: DatabaseHandle;
  bus: EventBus;
  redis?: SharedRedis;
  /** Shown once to whoever starts the station: how to sign in the first time. */
  firstSignIn?: { username: string; password?: string };
  /** Live-input password generated at this start (SOURCE_PASSWORD unset, none stored yet); shown once. */
  generatedSourcePassword?: string;
  stop(): Promise<void>;
}

/** Opens storage, prepares first-start content and builds the app; shared by main.ts and the end-to-end harness. */
export async function createStation(
  config: Config,
  options: {
    logger?: boolean | object;
    /** Keys and channels on the shared Redis start with this instead of REDIS_PREFIX; tests keep theirs apart. */
    redisPrefix?: string;
    /** Where Redis's lost/back lines go (stderr by default). */
    onRedisLog?: (level: 'warn' | 'info', line: string) => void;
  } = {},
): Promise<Station> {
  if (config.dataDir !== 'memory://') mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    ...config,
    onLog: (line) => process.stderr.write(`database: ${line}\n`),
  });
  const redis = config.redisUrl
    ? await openSharedRedis(config.redisUrl, {
        prefix: options.redisPrefix ?? config.redisPrefix,
        onLog: options.onRedisLog ?? ((level, line) => process.stderr.write(`redis ${level}: ${line}\n`)),
      })
    : undefined;
  const bus = redis ? await createRedisBus(redis) : createLocalBus();
  const firstSignIn = await ensureFirstSuperuser(database.db, config.admin);
  await markEarlierDemoContent(database.db);
  if (config.seedDemo) await seedDemoContent(database.db);
  // A web instance takes no live input: the broadcaster makes (and shows) the password. A live source goes
  // over a relayed station elsewhere as over the AutoDJ.
  const generatedSourcePassword =
    config.role === 'web' ? undefined : await ensureSourcePassword(database.db, config);
  const app = await buildApp({ config, db: database.db, bus, redis }, { logger: options.logger });
  // On air once the app is built: the AutoDJ (and a relayed station elsewhere) starts here; a web instance
  // starts hearing the broadcaster's heartbeats instead.
  await app.nowPlaying.start();
  return {
    app,
    database,
    bus,
    redis,
    firstSignIn,
    generatedSourcePassword,
    async stop() {
      await app.close();
      await bus.close();
      await redis?.close();
      await database.close();
    },
  };
}
