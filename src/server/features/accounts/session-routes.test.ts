import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessions, adminUsers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { passwordCheckMetrics } from './password-check.js';
import { addStaff, bearer, openSession, signIn, STAFF_PASSWORD } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let mary: Awaited<ReturnType<typeof addStaff>>;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  mary = await addStaff(t.db, 'mary', 'admin');
});
afterAll(() => t.close());

const verify = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/admin/verify', headers });

describe('POST /api/admin/login', () => {
  it('signs in with the right password: a fresh token, stored only as its hash, and lastLogin recorded', async () => {
    const res = await signIn(t.app, 'mary', STAFF_PASSWORD, '198.51.100.1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({ id: mary.id, username: 'mary', role: 'admin' });
    expect(new Date(body.expiresAt).getTime() - Date.now()).toBeGreaterThan(11 * 3600_000);

    const sessions = await t.db.select().from(adminSessions).where(eq(adminSessions.userId, mary.id));
    expect(sessions.some((s) => s.tokenHash === body.token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true);
    const [row] = await t.db.select().from(adminUsers).where(eq(adminUsers.id, mary.id));
    expect(row!.lastLogin).toBeInstanceOf(Date);

    expect((await verify(bearer(body.token))).json()).toEqual({
      user: { id: mary.id, username: 'mary', role: 'admin' },
    });
  });

  it("answers 'Invalid credentials' for a wrong password and for an unknown user alike, both checked by argon2", async () => {
    const before = passwordCheckMetrics.verifications;
    const wrong = await signIn(t.app, 'mary', 'not-her-password', '198.51.100.2');
    const unknown = await signIn(t.app, 'nobody-here', 'whatever-it-is', '198.51.100.2');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual({ message: 'Invalid credentials' });
    expect(unknown.json()).toEqual({ message: 'Invalid credentials' });
    expect(passwordCheckMetrics.verifications - before).toBe(2);
  });

  it('applies SPEC.md messages to a missing username or password', async () => {
    const noUser = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: '  ', password: 'x' },
    });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().message).toContain('Username is required');
    const noPassword = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'mary', password: '' },
    });
    expect(noPassword.json().message).toContain('Password is required');
  });

  it('refuses an inactive account even with the right password', async () => {
    const paul = await addStaff(t.db, 'paul', 'admin');
    await t.db.update(adminUsers).set({ isActive: 'false' }).where(eq(adminUsers.id, paul.id));
    const res = await signIn(t.app, 'paul', STAFF_PASSWORD, '198.51.100.3');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Invalid credentials' });
  });

  it('locks a username at one address after 5 failures with 429, without verifying any more passwords', async () => {
    const address = '192.0.2.10';
    for (let i = 0; i < 5; i++)
      expect((await signIn(t.app, 'mary', `guess-${i}-wrong`, address)).statusCode).toBe(401);
    const before = passwordCheckMetrics.verifications;
    const locked = await signIn(t.app, 'mary', STAFF_PASSWORD, address);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe('Too many sign-in attempts. Please wait 15 minutes and try again.');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect(passwordCheckMetrics.verifications).toBe(before);
    // The real staff member elsewhere is not locked out.
    expect((await signIn(t.app, 'mary', STAFF_PASSWORD, '192.0.2.11')).statusCode).toBe(200);
  });

  it('locks an address after 20 failures across usernames', async () => {
    const address = '192.0.2.20';
    for (let i = 0; i < 20; i++) {
      expect(
        (await signIn(t.app, `someone-${i % 5}-${Math.floor(i / 5)}`, 'wrong-password', address)).statusCode,
      ).toBe(401);
    }
    expect((await signIn(t.app, 'mary', STAFF_PASSWORD, address)).statusCode).toBe(429);
  });
});

describe('guesses at one username from many addresses', () => {
  it('are held after 10 while the staff member signs in from where they usually do', async () => {
    await addStaff(t.db, 'pastor', 'admin');
    expect((await signIn(t.app, 'pastor', STAFF_PASSWORD, '198.51.100.50')).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 40; i++)
        statuses.push((await signIn(t.app, 'pastor', `guess-${round}`, `203.0.113.${i + 1}`)).statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(190);
    const held = await signIn(t.app, 'pastor', STAFF_PASSWORD, '192.0.2.200');
    expect(held.statusCode).toBe(429);
    expect(held.json().message).toBe('Too many sign-in attempts. Please wait 1 minute and try again.');
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await signIn(t.app, 'pastor', STAFF_PASSWORD, '198.51.100.50')).statusCode).toBe(200);
  });
});

describe('a flood of guesses from many addresses', () => {
  it('is checked a few at a time; what cannot wait is answered 503 with a clear message', async () => {
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, i) => signIn(t.app, `flood-${i}`, 'wrong-password', `100.64.${i}.1`)),
    );
    // How many overflow depends on how the database lookups before the gate interleave (PGlite answers
    // at once, PostgreSQL over the network does not); password-check.test.ts pins the exact counts.
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(68);
    for (const busy of responses.filter((r) => r.statusCode === 503)) {
      expect(busy.json()).toEqual({
        message: 'Too many sign-in attempts right now. Please wait a minute and try again.',
      });
    }
    expect((await signIn(t.app, 'mary', STAFF_PASSWORD, '100.64.200.1')).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('GET /api/admin/verify needs a valid bearer token', async () => {
    expect((await verify({})).statusCode).toBe(401);
    expect((await verify(bearer('not-a-token'))).statusCode).toBe(401);
    expect((await verify(bearer('A'.repeat(43)))).json()).toEqual({
      message: 'Your session has ended. Please sign in again.',
    });
  });

  it('POST /api/admin/logout revokes that token only', async () => {
    const first = await openSession(t.db, mary.id);
    const second = await openSession(t.db, mary.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: first });
    expect(res.json()).toEqual({ ok: true });
    expect((await verify(first)).statusCode).toBe(401);
    expect((await verify(second)).statusCode).toBe(200);
  });

  it('an expired session is refused', async () => {
    const headers = await openSession(t.db, mary.id);
    expect((await verify(headers)).statusCode).toBe(200);
    await t.db
      .update(adminSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(adminSessions.userId, mary.id));
    expect((await verify(headers)).statusCode).toBe(401);
  });
});

describe('POST /api/admin/change-password', () => {
  const change = (headers: Record<string, string>, payload: object, address = '203.0.113.50') =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { ...headers, 'x-forwarded-for': address },
      payload,
    });

  it("enforces SPEC.md's rules and messages on the server", async () => {
    const { headers } = await addStaff(t.db, 'lydia', 'admin');
    const cases: [object, string][] = [
      [
        { currentPassword: '', newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' },
        'Current password is required',
      ],
      [
        { currentPassword: 'x', newPassword: 'short', confirmPassword: 'short' },
        'New password must be at least 8 characters',
      ],
      [
        { currentPassword: 'x', newPassword: 'abcdefgh', confirmPassword: 'abc' },
        'Please confirm your new password',
      ],
      [
        { currentPassword: 'x', newPassword: 'abcdefgh', confirmPassword: 'abcdefgX' },
        "Passwords don't match",
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await change(headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const wrong = await change(headers, {
      currentPassword: 'not-mine-at-all',
      newPassword: 'abcdefgh',
      confirmPassword: 'abcdefgh',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Current password is incorrect' });
  });

  it('changes the password, keeps this session and signs out the others', async () => {
    const timothy = await addStaff(t.db, 'timothy', 'admin');
    const other = await openSession(t.db, timothy.id);
    const res = await change(timothy.headers, {
      currentPassword: STAFF_PASSWORD,
      newPassword: 'new-and-longer',
      confirmPassword: 'new-and-longer',
    });
    expect(res.statusCode).toBe(200);
    expect((await verify(timothy.headers)).statusCode).toBe(200);
    expect((await verify(other)).statusCode).toBe(401);
    expect((await signIn(t.app, 'timothy', STAFF_PASSWORD, '203.0.113.60')).statusCode).toBe(401);
    expect((await signIn(t.app, 'timothy', 'new-and-longer', '203.0.113.60')).statusCode).toBe(200);
  });
});
