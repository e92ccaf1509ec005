// The station grown past one machine, as deploy/README.md's plain commands start it (without the proxy): a
// fresh PostgreSQL database, Redis database and Redis prefix, one broadcaster, the Icecast relay of deploy/icecast/relay.xml
// pulling its /stream, and two web instances. Each piece is stopped, and the databases removed, by `stop`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, startIcecast, stopProcess, waitFor } from '../../src/server/test/icecast-server';
import { BENCH_ADMIN } from '../memory/station';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Instance {
  name: string;
  pid: number;
  origin: string;
  url: string;
}

export interface ScaledSet {
  broadcaster: Instance;
  webs: Instance[];
  relay: { pid: number; origin: string; streamUrl: string };
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

let stopping = false;
/** From now on a process of the set that ends is being stopped, not failing. */
export const stoppingTheSet = () => (stopping = true);

/** One process from dist/, as an operator starts it, with a raised file limit; resolves once it is on the air. */
async function startInstance(
  name: string,
  env: Record<string, string>,
  fileLimit: number,
  onSpawn: (child: ChildProcess) => void,
): Promise<Instance> {
  const port = await freePort();
  const child = spawn(
    'sh',
    ['-c', `ulimit -n ${fileLimit} 2>/dev/null; exec "$0" dist/server/main.js`, process.execPath],
    {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  onSpawn(child);
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the ${name} exited (${code}):\n${output.trim()}`))),
  );
  exited.catch(() => {});
  await Promise.race([
    exited,
    waitFor(
      `the ${name} to be on the air`,
      () => (output.includes('on the air at') ? true : undefined),
      120_000,
    ),
  ]);
  // Gone before the bench stops it: said at once, with its last words, for the figures will show it.
  child.once('exit', (code, signal) => {
    if (!stopping) console.log(`the ${name} exited (${code ?? signal}) during the run:\n${output.trim()}`);
  });
  return { name, pid: child.pid!, origin: `http://127.0.0.1:${port}`, url: `ws://127.0.0.1:${port}/ws` };
}

/**
 * A Redis logical database nobody uses, for the keys; channels are shared by every database, so the run's
 * own REDIS_PREFIX keeps its chat out of other stations on this Redis, and theirs out of it.
 */
async function emptyRedisDatabase(): Promise<number> {
  const candidates = Array.from({ length: 15 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
  for (const db of candidates) {
    const redis = new Redis(`${REDIS}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      if ((await redis.dbsize()) === 0) return db;
    } finally {
      redis.disconnect();
    }
  }
  throw new Error('no empty Redis database among 1-15');
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The relay configuration of deploy/icecast/relay.xml with its placeholders filled (as relay.test.ts does). */
function relayConfig(vars: {
  broadcasterPort: number;
  relayPort: number;
  clients: number;
  logDir: string;
  changeOwner: string;
}) {
  const template = readFileSync(new URL('../../deploy/icecast/relay.xml', import.meta.url), 'utf8');
  return template
    .replaceAll('BROADCASTER_HOST', '127.0.0.1')
    .replaceAll('BROADCASTER_PORT', String(vars.broadcasterPort))
    .replaceAll('RELAY_PORT', String(vars.relayPort))
    .replaceAll('CHANGE_ME_ADMIN', `pw${randomBytes(8).toString('hex')}`)
    .replace('<clients>1000</clients>', `<clients>${Math.max(1000, vars.clients)}</clients>`)
    .replace('/var/log/icecast2', vars.logDir)
    .replace(/<(access|error)log>[^<]*</g, '<$1log>-<')
    .replace('<chroot>0</chroot>', `<chroot>0</chroot>${vars.changeOwner}`);
}

/**
 * Starts the set; `stops` receives, in the order to run them, what undoes each step (processes first, then
 * the databases and the data folder).
 */
export async function startScaledSet(options: {
  fileLimit: number;
  relayListeners: number;
  onSpawn: (child: ChildProcess) => void;
  stops: (() => Promise<void>)[];
}): Promise<ScaledSet> {
  const { stops } = options;
  const undo: (() => Promise<void>)[] = [];
  // Run in reverse order of the steps: the last process started is the first stopped.
  stops.push(async () => {
    for (const step of undo.reverse()) await step().catch(() => {});
  });
  const id = randomBytes(4).toString('hex');

  const database = `bench_scale_${id}`;
  await admin(`CREATE DATABASE ${database}`);
  undo.push(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  const redisDb = await emptyRedisDatabase();
  const redisUrl = `${REDIS}/${redisDb}`;
  const redisPrefix = `bench-scale-${id}:`;
  undo.push(async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    await redis.flushdb().finally(() => redis.disconnect());
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'station-scale-bench-'));
  undo.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  const children: ChildProcess[] = [];
  const spawned = (child: ChildProcess) => {
    children.push(child);
    options.onSpawn(child);
  };
  undo.push(async () => {
    stoppingTheSet();
    await Promise.all(children.map((c) => stopProcess(c, 10_000)));
  });

  const databaseUrl = `${POSTGRES}/${database}`;
  const common: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    DATA_DIR: dataDir,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    // Every bench listener, and the relay's pull, come from 127.0.0.1.
    MAX_LISTENERS_PER_ADDRESS: '1000000',
  };
  // The relay's address is known before it starts (deploy/README.md exports RELAY_URLS for every role).
  const relayPort = await freePort();
  const streamUrl = `http://127.0.0.1:${relayPort}/stream`;
  common.RELAY_URLS = streamUrl;
  const broadcaster = await startInstance(
    'broadcaster',
    { ...common, STATION_ROLE: 'broadcaster', SOURCE_PASSWORD: randomBytes(12).toString('hex') },
    options.fileLimit,
    spawned,
  );

  const relay = await startIcecast({
    port: relayPort,
    onSpawn: spawned,
    configXml: ({ logDir, changeOwner }) =>
      relayConfig({
        broadcasterPort: Number(new URL(broadcaster.origin).port),
        relayPort,
        clients: options.relayListeners + 64,
        logDir,
        changeOwner,
      }),
  });
  undo.push(() => relay.stop());
  await relay.waitForMount('/stream');

  // One after the other: the first applies nothing new to the database, but two at once need not be tried.
  const webs: Instance[] = [];
  for (const name of ['web A', 'web B']) {
    const web = await startInstance(
      name,
      { ...common, STATION_ROLE: 'web', BROADCASTER_URL: broadcaster.origin },
      options.fileLimit,
      spawned,
    );
    await waitFor(
      `${name} to be ready`,
      async () => ((await fetch(`${web.origin}/readyz`)).ok ? true : undefined),
      30_000,
    );
    webs.push(web);
  }
  return {
    broadcaster,
    webs,
    relay: { pid: relay.process.pid!, origin: relay.origin, streamUrl },
    databaseUrl,
    redisUrl,
    redisPrefix,
  };
}
