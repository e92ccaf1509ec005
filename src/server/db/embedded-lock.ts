import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseOpenError } from './open-error.js';

// Who holds an embedded data directory: PostgreSQL's own postmaster.pid, read against the running processes.

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
export async function clearStaleLock(dbDir: string, attach = false): Promise<'running' | undefined> {
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
