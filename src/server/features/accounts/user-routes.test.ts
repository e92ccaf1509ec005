import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff, openSession } from '../../test/staff.js';
import { deleteUser, LAST_SUPERUSER, setActive } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let root: Awaited<ReturnType<typeof addStaff>>;
let anna: Awaited<ReturnType<typeof addStaff>>;

beforeAll(async () => {
  t = await createTestApp();
  root = await addStaff(t.db, 'root-pastor', 'superuser');
  anna = await addStaff(t.db, 'anna', 'admin');
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload: object) =>
  t.app.inject({ method: 'POST', url, headers, payload });
/** POST /api/admin/create as the given staff member. */
const create = (headers: Headers, username: string, role: string, password = 'long enough') =>
  post('/api/admin/create', headers, { username, password, role });
const verify = (headers: Headers) => t.app.inject({ method: 'GET', url: '/api/admin/verify', headers });
const listUsers = (headers: Headers) => t.app.inject({ method: 'GET', url: '/api/admin/users', headers });
const remove = (headers: Headers, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/admin/users/${id}`, headers });

describe('POST /api/admin/create', () => {
  it('lets an admin create an admin, recording who created it', async () => {
    const res = await create(anna.headers, '  silas ', 'admin');
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({
      username: 'silas',
      role: 'admin',
      isActive: true,
      lastLogin: null,
    });
    const [row] = await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'silas'));
    expect(row!.createdBy).toBe('anna');
  });

  it('defaults the role to admin and refuses a superuser from an admin with 403', async () => {
    const res = await create(anna.headers, 'barnabas', 'superuser');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Only a superuser can create superuser accounts' });
    expect(await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'barnabas'))).toEqual([]);
  });

  it('lets a superuser choose the role', async () => {
    const res = await create(root.headers, 'priscilla', 'superuser');
    expect(res.statusCode).toBe(201);
    expect(res.json().user.role).toBe('superuser');
  });

  it("refuses a duplicate username with 409 'Username already exists'", async () => {
    const res = await create(root.headers, 'anna', 'admin');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Username already exists' });
  });

  it("applies SPEC.md's minimums with its messages", async () => {
    const short = await create(root.headers, 'ab', 'admin');
    expect(short.json().message).toContain('Username must be at least 3 characters');
    const weak = await create(root.headers, 'abc', 'admin', 'short');
    expect(weak.json().message).toContain('Password must be at least 8 characters');
    expect([short.statusCode, weak.statusCode]).toEqual([400, 400]);
  });
});

describe('GET /api/admin/users', () => {
  it('lists exactly the SPEC.md fields, never a hash', async () => {
    const res = await listUsers(root.headers);
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(items.length).toBeGreaterThanOrEqual(4);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        'createdAt',
        'id',
        'isActive',
        'lastLogin',
        'role',
        'username',
      ]);
      expect(typeof item.isActive).toBe('boolean');
    }
    expect(res.body).not.toContain('argon2');
  });

  it('is for superusers only', async () => {
    expect((await listUsers(anna.headers)).statusCode).toBe(403);
  });
});

describe('role, status and deletion', () => {
  it('a role change applies to open sessions at once', async () => {
    const lois = await addStaff(t.db, 'lois', 'superuser');
    expect((await listUsers(lois.headers)).statusCode).toBe(200);
    const res = await post('/api/admin/update-role', root.headers, { userId: lois.id, role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: lois.id, role: 'admin' });
    expect((await listUsers(lois.headers)).statusCode).toBe(403);
    expect((await verify(lois.headers)).json().user.role).toBe('admin');
  });

  it('deactivation signs the user out at once and stops sign-in; activation lets them back', async () => {
    const eunice = await addStaff(t.db, 'eunice', 'admin');
    const res = await post('/api/admin/toggle-status', root.headers, { userId: eunice.id, isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.isActive).toBe(false);
    expect((await verify(eunice.headers)).statusCode).toBe(401);
    await post('/api/admin/toggle-status', root.headers, { userId: eunice.id, isActive: true });
    // Sessions revoked by deactivation stay revoked.
    expect((await verify(eunice.headers)).statusCode).toBe(401);
    expect((await verify(await openSession(t.db, eunice.id))).statusCode).toBe(200);
  });

  it('deletion ends the user and their sessions', async () => {
    const demas = await addStaff(t.db, 'demas', 'admin');
    const res = await remove(root.headers, demas.id);
    expect(res.statusCode).toBe(200);
    expect((await verify(demas.headers)).statusCode).toBe(401);
    expect(await t.db.select().from(adminUsers).where(eq(adminUsers.id, demas.id))).toEqual([]);
    expect((await remove(root.headers, demas.id)).statusCode).toBe(404);
  });

  it('nobody deactivates or deletes themselves', async () => {
    const deactivate = await post('/api/admin/toggle-status', root.headers, {
      userId: root.id,
      isActive: false,
    });
    expect(deactivate.statusCode).toBe(400);
    expect(deactivate.json()).toEqual({ message: 'You cannot deactivate your own account' });
    const del = await remove(root.headers, root.id);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({ message: 'You cannot delete your own account' });
  });

  it('unknown users answer 404', async () => {
    expect(
      (await post('/api/admin/update-role', root.headers, { userId: 'no-such-user', role: 'admin' }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await post('/api/admin/toggle-status', root.headers, { userId: 'no-such-user', isActive: true })
      ).json(),
    ).toEqual({
      message: 'User not found',
    });
  });
});

describe('the last active superuser', () => {
  it('cannot be demoted; once another superuser is active, it can', async () => {
    const [priscilla] = await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'priscilla'));
    // Leave root-pastor as the only active superuser: an inactive superuser does not count.
    await post('/api/admin/toggle-status', root.headers, { userId: priscilla!.id, isActive: false });

    const demote = await post('/api/admin/update-role', root.headers, { userId: root.id, role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      message: 'The last active superuser cannot be made an admin. Make another superuser first.',
    });
    const [still] = await t.db.select().from(adminUsers).where(eq(adminUsers.id, root.id));
    expect(still!.role).toBe('superuser');

    await post('/api/admin/toggle-status', root.headers, { userId: priscilla!.id, isActive: true });
    expect(
      (await post('/api/admin/update-role', root.headers, { userId: root.id, role: 'admin' })).statusCode,
    ).toBe(200);
    expect((await listUsers(root.headers)).statusCode).toBe(403);
    // priscilla is now the last active superuser and puts root back.
    const pris = await openSession(t.db, priscilla!.id);
    expect(
      (await post('/api/admin/update-role', pris, { userId: root.id, role: 'superuser' })).statusCode,
    ).toBe(200);
  });

  it('cannot be deactivated or deleted, whoever asks (the service guards even callers the routes never allow)', async () => {
    const [priscilla] = await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'priscilla'));
    await setActive(t.db, root.id, priscilla!.id, false);
    await expect(setActive(t.db, anna.id, root.id, false)).rejects.toMatchObject({
      statusCode: 409,
      message: LAST_SUPERUSER.deactivate,
    });
    await expect(deleteUser(t.db, anna.id, root.id)).rejects.toMatchObject({
      statusCode: 409,
      message: LAST_SUPERUSER.delete,
    });
    const [still] = await t.db.select().from(adminUsers).where(eq(adminUsers.id, root.id));
    expect(still).toMatchObject({ isActive: 'true', role: 'superuser' });
  });

  it('two superusers demoting each other at once leave one superuser', async () => {
    const [priscilla] = await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'priscilla'));
    await setActive(t.db, root.id, priscilla!.id, true);
    const pris = await openSession(t.db, priscilla!.id);
    const results = await Promise.all([
      post('/api/admin/update-role', root.headers, { userId: priscilla!.id, role: 'admin' }),
      post('/api/admin/update-role', pris, { userId: root.id, role: 'admin' }),
    ]);
    const supers = await t.db.select().from(adminUsers).where(eq(adminUsers.role, 'superuser'));
    expect(supers.filter((u) => u.isActive === 'true')).toHaveLength(1);
    // The loser is refused either by the last-superuser rule (409) or, when the winner's demotion of them
    // committed before their own request was authorised, as no longer a superuser (403).
    const [first, second] = results.map((r) => r.statusCode).sort();
    expect(first).toBe(200);
    expect([403, 409]).toContain(second);
  });
});
