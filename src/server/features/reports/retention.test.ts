import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRun, listenerSessions } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let root: Record<string, string>;

const URL = '/api/admin/reports/retention';
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const put = (payload: unknown) =>
  t.app.inject({ method: 'PUT', url: URL, headers: root, payload: payload as object });

beforeAll(async () => {
  t = await createTestApp();
  root = (await addStaff(t.db, 'station-root', 'superuser')).headers;
  // Something that aired and was heard 100 days ago, and 40 days ago.
  for (const age of [100, 40]) {
    await t.db.insert(asRun).values({
      kind: 'fill',
      reason: 'fill',
      title: `${age} days ago`,
      startedAt: daysAgo(age),
      endedAt: daysAgo(age - 0.01),
    });
    await t.db.insert(listenerSessions).values({
      startedAt: daysAgo(age),
      endedAt: daysAgo(age - 0.01),
      bitrate: 128,
      player: 'browser',
      via: 'direct',
    });
  }
});
afterAll(() => t.close());

const kept = async () => ({
  asRun: (await t.db.select().from(asRun)).map((r) => r.title).sort(),
  sessions: (await t.db.select().from(listenerSessions)).length,
});

describe('how long the as-run log and listener sessions are kept', () => {
  it.each([
    [{ days: 30 }, 'at least 31 days'],
    [{ days: 3661 }, 'at most 3660 days'],
    [{ days: 90.5 }, 'whole number'],
    [{ days: '90' }, 'number of days'],
    [{ days: null }, 'number of days'],
    [{}, 'number of days'],
    [{ days: 90, keep: 'all' }, 'keep'],
    [[730], ''],
  ])('refuses %j with a 400 saying why', async (payload, why) => {
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(why, 'i'));
  });

  it('keeps two years until a superuser sets it, then forgets at once what is older', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL, headers: root })).json()).toEqual({ days: 730 });
    expect(await kept()).toEqual({ asRun: ['100 days ago', '40 days ago'], sessions: 2 });
    expect((await put({ days: 3660 })).json()).toEqual({ days: 3660 });
    expect((await put({ days: 60 })).json()).toEqual({ days: 60 });
    expect((await t.app.inject({ method: 'GET', url: URL, headers: root })).json()).toEqual({ days: 60 });
    expect(await kept()).toEqual({ asRun: ['40 days ago'], sessions: 1 });
  });

  it('lets admins read it but not change it', async () => {
    const admin = (await addStaff(t.db, 'station-admin', 'admin')).headers;
    expect((await t.app.inject({ method: 'GET', url: URL, headers: admin })).json()).toEqual({ days: 60 });
    const res = await t.app.inject({ method: 'PUT', url: URL, headers: admin, payload: { days: 31 } });
    expect(res.statusCode).toBe(403);
    expect(await kept()).toEqual({ asRun: ['40 days ago'], sessions: 1 });
  });
});
