import { sql } from 'drizzle-orm';
import type { Readiness } from '../../../common/health.js';
import type { Database } from '../../db/client.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { HEARTBEAT_STALE_MS } from '../../radio/broadcaster-link.js';

/** A check that has not answered in this time has failed. */
const CHECK_TIMEOUT_MS = 2_000;

/** What answers: the database always, Redis when configured, the broadcaster on a web instance. */
export async function readiness(deps: {
  db: Database;
  bus?: EventBus;
  /** Milliseconds since the broadcaster's last heartbeat; only on a web instance. */
  broadcasterHeartbeatAge?: () => number;
}): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    check(async () => {
      await deps.db.execute(sql`select 1`);
    }),
    deps.bus ? check(() => deps.bus!.ping()) : 'off',
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
  const checks = { database, redis, broadcaster };
  const failing = Object.entries(checks).find(([, state]) => state !== 'ok' && state !== 'off');
  return failing ? { ready: false, reason: `${failing[0]}: ${failing[1]}`, checks } : { ready: true, checks };
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
