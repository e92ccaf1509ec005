import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_FULL } from '../../../common/http.js';
import { buildApp } from '../../app.js';
import { createLocalBus, createRedisBus } from '../../plugins/event-bus.js';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { openTestRedis, startOwnRedis, testRedisPrefix } from '../../test/redis.js';

// Ready means can serve: Redis away degrades an instance (its own view) without taking it out of the
// load balancer; a database that does not answer, or a disk that refuses writes, does.

const readyz = async (app: Awaited<ReturnType<typeof buildApp>>) => {
  const res = await app.inject({ url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
};

const haveRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!haveRedisServer) console.warn('Readiness with Redis away skipped: redis-server is not installed');

describe.skipIf(!haveRedisServer)('with Redis configured', () => {
  let redis: Awaited<ReturnType<typeof startOwnRedis>>;
  let instance: Awaited<ReturnType<typeof start>>;

  async function start() {
    const database = await createTestDatabase();
    const shared = await openTestRedis(testRedisPrefix(), redis.url);
    const bus = await createRedisBus(shared.redis);
    const app = await buildApp({
      config: testConfig({ REDIS_URL: redis.url }),
      db: database.db,
      bus,
      redis: shared.redis,
    });
    await app.ready();
    return {
      app,
      ...shared,
      async close() {
        await app.close();
        await bus.close();
        await shared.redis.close();
        await database.close();
      },
    };
  }

  beforeAll(async () => {
    redis = await startOwnRedis();
    instance = await start();
  });
  afterAll(async () => {
    await instance?.close();
    await redis?.stop();
  });

  it.each([
    ['Redis answers', 200, { ready: true, checks: { database: 'ok', redis: 'ok' } }, async () => {}],
    [
      'Redis has gone away',
      200,
      {
        ready: true,
        degraded: ['redis'],
        checks: { database: 'ok', redis: expect.not.stringMatching(/^ok$/) },
      },
      async () => {
        const from = instance.lines.length;
        await redis.stop();
        await instance.untilLine(/is unreachable/, from);
      },
    ],
    [
      'Redis is back',
      200,
      { ready: true, checks: { database: 'ok', redis: 'ok' } },
      async () => {
        const from = instance.lines.length;
        redis = await startOwnRedis(redis.port);
        await instance.untilLine(/is back/, from);
      },
    ],
  ])('when %s, /readyz answers %i and says so', async (_c, status, body, happen) => {
    await happen();
    const answer = await readyz(instance.app);
    expect(answer.body).toMatchObject(body);
    expect(answer.status).toBe(status);
    if (!('degraded' in body)) expect(answer.body.degraded).toBeUndefined();
  });
});

describe('without Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const bus = createLocalBus();
  let databaseOpen = true;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config: testConfig(), db: database.db, bus });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await bus.close();
    if (databaseOpen) await database.close();
  });

  it('answers a write the database refuses for want of space 507, and /readyz 503 naming the disk', async () => {
    expect(await readyz(app)).toMatchObject({ status: 200, body: { ready: true, checks: { disk: 'off' } } });
    // What PostgreSQL raises when it cannot extend a table's file.
    await database.db.execute(sql`
      CREATE FUNCTION disk_is_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device'
          USING ERRCODE = '53100';
      END $$`);
    await database.db.execute(
      sql`CREATE TRIGGER disk_is_full BEFORE INSERT ON prayer_requests FOR EACH ROW EXECUTE FUNCTION disk_is_full()`,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/prayer-requests',
      payload: { request: 'Pray for the engineers' },
    });
    expect(res.json()).toEqual({ message: DISK_FULL });
    expect(res.statusCode).toBe(507);
    const answer = await readyz(app);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ ready: false, reason: expect.stringMatching(/^disk: full/) });
    expect(answer.body.checks.database).toBe('ok');
  });

  it('is not ready while the database does not answer', async () => {
    databaseOpen = false;
    await database.close();
    const answer = await readyz(app);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ ready: false, reason: expect.stringMatching(/^database: /) });
  });
});
