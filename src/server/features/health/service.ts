import { statfs } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Readiness } from '../../../common/health.js';
import type { Database } from '../../db/client.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { HEARTBEAT_STALE_MS } from '../../radio/broadcaster-link.js';

/** A check that has not answered in this time has failed. */
const CHECK_TIMEOUT_MS = 2_000;
/** After a write failed for want of space, not ready for this long (the space may have been freed since). */
export const DISK_FULL_HOLD_MS = 60_000;
/** Less free space than this under DATA_DIR: the next upload or database page may not fit. */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;

/**
 * What answers: the database always, Redis when configured, the broadcaster on a web instance, and the disk
 * (free space under DATA_DIR, and no write refused for want of space lately). Redis away degrades the
 * instance (its own view) without making it unready.
 */
export async function readiness(deps: {
  db: Database;
  bus?: EventBus;
  /** Milliseconds since the broadcaster's last heartbeat; only on a web instance. */
  broadcasterHeartbeatAge?: () => number;
  /** DATA_DIR, or undefined when the station keeps nothing on disk (memory://). */
  dataDir?: string;
  /** When a write last failed because a disk was full. */
  lastDiskFullAt?: () => number | undefined;
}): Promise<Readiness> {
  const [database, redis, disk] = await Promise.all([
    check(async () => {
      await deps.db.execute(sql`select 1`);
    }),
    deps.bus ? check(() => deps.bus!.ping()) : 'off',
    diskState(deps.dataDir, deps.lastDiskFullAt?.()),
  ]);
  let broadcaster = 'off';
  if (deps.broadcasterHeartbeatAge) {
    const age = deps.broadcasterHeartbeatAge();
    broadcaster =
      age <= HEARTBEAT_STALE_MS
        ? 'ok'
        : Number.isFinite(age)
          ? `no heartbeat for ${Math.round(age / 1000)} s`
          : 'no heartbeat heard yet';
  }
  const checks = { database, disk, redis, broadcaster };
  const failing = (state: string) => state !== 'ok' && state !== 'off';
  const degraded = failing(redis) ? { degraded: ['redis' as const] } : {};
  const needed = Object.entries({ database, disk, broadcaster }).find(([, state]) => failing(state));
  return needed
    ? { ready: false, reason: `${needed[0]}: ${needed[1]}`, ...degraded, checks }
    : { ready: true, ...degraded, checks };
}

async function diskState(dataDir: string | undefined, lastFullAt: number | undefined): Promise<string> {
  if (lastFullAt !== undefined && Date.now() - lastFullAt < DISK_FULL_HOLD_MS)
    return `full: a write failed for want of space ${Math.round((Date.now() - lastFullAt) / 1000)} s ago`;
  if (!dataDir) return 'off';
  try {
    const space = await statfs(dataDir);
    const free = space.bavail * space.bsize;
    return free < MIN_FREE_BYTES ? `full: ${Math.floor(free / 1024)} KB free under DATA_DIR` : 'ok';
  } catch (error) {
    return (error as Error).message || 'cannot be read';
  }
}

async function check(probe: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => 'ok'), timeout]);
  } catch (error) {
    return (error as Error).message || 'failed';
  } finally {
    clearTimeout(timer);
  }
}
