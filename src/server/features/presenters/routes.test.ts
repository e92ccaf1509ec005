import { eq, sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myBroadcastSchema } from '../../../common/presenters.js';
import { presenterSourcePasswords } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { inMemoryPresenterSchedule } from '../../test/presenter-schedule.js';
import { addStaff, openSession } from '../../test/staff.js';
import { presenterBySourcePassword } from './service.js';

const schedule = inMemoryPresenterSchedule();
const t = await createTestApp({ PUBLIC_URL: 'https://radio.example.org' }, { presenterSchedule: schedule });
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof addStaff>>;
let superuser: Staff;
let admin: Staff;
let ruth: Staff;
let james: Staff;

beforeAll(async () => {
  superuser = await addStaff(t.db, 'pastor-john', 'superuser');
  admin = await addStaff(t.db, 'deacon-mary', 'admin');
  ruth = await addStaff(t.db, 'pastor-ruth', 'presenter');
  james = await addStaff(t.db, 'brother-james', 'presenter');
});

const rotateOwn = async (who: Staff) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/presenters/me/source-password',
    headers: await openSession(t.db, who.id),
  });
const rotateFor = (id: string, headers: Record<string, string> = superuser.headers) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/accounts/${encodeURIComponent(id)}/source-password`,
    headers,
  });
const me = async (who: Staff) =>
  t.app.inject({ method: 'GET', url: '/api/admin/presenters/me', headers: await openSession(t.db, who.id) });

/** Every row of every table of ours, to show a refused request changed nothing. */
async function snapshot() {
  const query = async <Row>(statement: SQL) =>
    ((await t.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  const names = await query<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'admin_sessions' order by table_name`,
  );
  const tables: Record<string, string[]> = {};
  for (const { table_name } of names) {
    const rows = await query<object>(sql.raw(`select * from "${table_name}"`));
    tables[table_name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return tables;
}

describe('presenter accounts', () => {
  it('a superuser creates one; an admin may not', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/create',
      headers: superuser.headers,
      payload: { username: 'sister-grace', password: 'psalm-100-joy', role: 'presenter' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().user.role).toBe('presenter');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/create',
      headers: admin.headers,
      payload: { username: 'brother-paul', password: 'psalm-100-joy', role: 'presenter' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Only a superuser can create presenter accounts' });
  });

  it('a presenter signs in and is told their role', async () => {
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'sister-grace', password: 'psalm-100-joy' },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ username: 'sister-grace', role: 'presenter' });
  });

  it('staff list the active presenters a programme can be given to', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/presenters', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { username: string }) => p.username)).toEqual([
      'brother-james',
      'pastor-ruth',
      'sister-grace',
    ]);
  });
});

describe('My broadcast', () => {
  it("shows the presenter's name, their encoder's settings and their programmes ahead", async () => {
    const soon = new Date(Date.now() + 2 * 3_600_000);
    schedule.programmes.push(
      {
        presenterId: ruth.id,
        programmeTitle: 'Sunday Service',
        startsAt: soon,
        endsAt: new Date(soon.getTime() + 3_600_000),
      },
      // Someone else's programme is not theirs to see.
      {
        presenterId: james.id,
        programmeTitle: 'Youth Hour',
        startsAt: soon,
        endsAt: new Date(soon.getTime() + 3_600_000),
      },
    );
    const res = await me(ruth);
    expect(res.statusCode).toBe(200);
    const area = myBroadcastSchema.parse(res.json());
    expect(area).toEqual({
      id: ruth.id,
      username: 'pastor-ruth',
      encoder: {
        server: 'radio.example.org',
        port: 443,
        tls: true,
        mount: '/stream',
        username: 'pastor-ruth',
      },
      sourcePasswordSetAt: null,
      upcoming: [
        {
          programmeTitle: 'Sunday Service',
          opensAt: new Date(soon.getTime() - 5 * 60_000).toISOString(),
          startsAt: soon.toISOString(),
          endsAt: new Date(soon.getTime() + 3_600_000).toISOString(),
        },
      ],
    });
  });

  it('a presenter rotates their own source password: shown once, stored only as a hash, the old one dead', async () => {
    const first = await rotateOwn(ruth);
    expect(first.statusCode).toBe(200);
    const password: string = first.json().sourcePassword;
    expect(password).toMatch(/^[\w-]{24}$/);
    const [row] = await t.db
      .select()
      .from(presenterSourcePasswords)
      .where(eq(presenterSourcePasswords.userId, ruth.id));
    expect(row!.passwordHash).not.toContain(password);
    expect(JSON.stringify(row)).not.toContain(password);
    expect((await presenterBySourcePassword(t.db, 'pastor-ruth', password))?.id).toBe(ruth.id);
    // Shown once: "My broadcast" says when it was made, never what it is.
    const area = (await me(ruth)).body;
    expect(area).not.toContain(password);
    expect(JSON.parse(area).sourcePasswordSetAt).toBe(row!.setAt.toISOString());

    const second = (await rotateOwn(ruth)).json().sourcePassword;
    expect(second).not.toBe(password);
    expect(await presenterBySourcePassword(t.db, 'pastor-ruth', password)).toBeUndefined();
    expect((await presenterBySourcePassword(t.db, 'pastor-ruth', second))?.id).toBe(ruth.id);
    // Another presenter's name with it is nobody.
    expect(await presenterBySourcePassword(t.db, 'brother-james', second)).toBeUndefined();
  });

  it("a superuser rotates a presenter's source password from the accounts list", async () => {
    const res = await rotateFor(james.id);
    expect(res.statusCode).toBe(200);
    const password = res.json().sourcePassword;
    expect((await presenterBySourcePassword(t.db, 'brother-james', password))?.id).toBe(james.id);
  });

  it('a password stops working when its account stops being an active presenter', async () => {
    const grace = await addStaff(t.db, 'brother-luke', 'presenter');
    const password = (await rotateFor(grace.id)).json().sourcePassword;
    expect(await presenterBySourcePassword(t.db, 'brother-luke', password)).toBeDefined();
    const toggle = (isActive: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/toggle-status',
        headers: superuser.headers,
        payload: { userId: grace.id, isActive },
      });
    await toggle(false);
    expect(await presenterBySourcePassword(t.db, 'brother-luke', password)).toBeUndefined();
    await toggle(true);
    expect(await presenterBySourcePassword(t.db, 'brother-luke', password)).toBeDefined();
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/update-role',
      headers: superuser.headers,
      payload: { userId: grace.id, role: 'admin' },
    });
    expect(await presenterBySourcePassword(t.db, 'brother-luke', password)).toBeUndefined();
    // Deleting the account deletes its password with it.
    await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${grace.id}`, headers: superuser.headers });
    const rows = await t.db
      .select()
      .from(presenterSourcePasswords)
      .where(eq(presenterSourcePasswords.userId, grace.id));
    expect(rows).toEqual([]);
  });
});

describe('refusals', () => {
  it.each([
    ['an admin account', () => admin.id, 409, 'Only presenters have their own source password'],
    ['a superuser account', () => superuser.id, 409, 'Only presenters have their own source password'],
    ['nobody', () => 'no-such-account', 404, 'User not found'],
    ['a path', () => '../users', 400, 'id: is not a valid id'],
    ['an id with a space', () => 'a b', 400, 'id: is not a valid id'],
  ])('a superuser rotating for %s', async (_case, id, status, message) => {
    const before = await snapshot();
    const res = await rotateFor(id());
    expect(res.statusCode).toBe(status);
    if (message) expect(res.json()).toEqual({ message });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['an admin', () => admin.headers, 403, 'Only a superuser can do this'],
    [
      'a presenter, for another',
      async () => openSession(t.db, ruth.id),
      403,
      'Presenters can only use My broadcast',
    ],
    [
      'a presenter, for themselves',
      async () => openSession(t.db, ruth.id),
      403,
      'Presenters can only use My broadcast',
    ],
    ['nobody', () => ({}), 401, 'Please sign in to continue'],
  ])('%s may not rotate through the accounts route', async (_case, headers, status, message) => {
    const before = await snapshot();
    const res = await rotateFor(_case.includes('themselves') ? ruth.id : james.id, await headers());
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['GET', '/api/admin/presenters/me'],
    ['POST', '/api/admin/presenters/me/source-password'],
  ] as const)('%s %s is for presenters only', async (method, url) => {
    const before = await snapshot();
    for (const headers of [admin.headers, superuser.headers]) {
      const res = await t.app.inject({ method, url, headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Only presenters have a broadcast area' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('any id a superuser may send gets a 4xx with a message, never a 5xx, and nothing changes', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 120 }), fc.uuid(), fc.stringMatching(/^[\w-]{1,120}$/)),
        async (id) => {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/admin/accounts/${encodeURIComponent(id)}/source-password`,
            headers: superuser.headers,
          });
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(typeof res.json().message).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it("a body or a query naming another presenter still rotates only the caller's own password", async () => {
    const jamesBefore = await t.db
      .select()
      .from(presenterSourcePasswords)
      .where(eq(presenterSourcePasswords.userId, james.id));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/presenters/me/source-password?userId=' + james.id,
      headers: await openSession(t.db, ruth.id),
      payload: { userId: james.id },
    });
    expect(res.statusCode).toBe(200);
    expect(await presenterBySourcePassword(t.db, 'pastor-ruth', res.json().sourcePassword)).toBeDefined();
    expect(
      await t.db.select().from(presenterSourcePasswords).where(eq(presenterSourcePasswords.userId, james.id)),
    ).toEqual(jamesBefore);
  });
});
