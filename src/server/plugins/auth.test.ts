import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessions, adminUsers } from '../db/schema.js';
import { addStaff, bearer, hashToken, openSession } from '../test/staff.js';
import { createTestApp } from '../test/helpers.js';
import authPlugin, { type ProtectedRoute } from './auth.js';

/**
 * The authorization matrix, generated from the live route table: every route that declares
 * signed-in, presenter, staff or superuser access is called in every caller state below (a presenter
 * reaches only their own area and the session routes: 403 everywhere else). A route added later with
 * `config: { access }` is in the table, so it is tested without anyone editing this file.
 */
const t = await createTestApp();
afterAll(() => t.close());

type CallerState =
  | 'no token'
  | 'garbage token'
  | 'expired'
  | 'revoked by logout'
  | 'deactivated user'
  | 'deleted user'
  | 'admin'
  | 'superuser'
  | 'presenter';
const STATES: CallerState[] = [
  'no token',
  'garbage token',
  'expired',
  'revoked by logout',
  'deactivated user',
  'deleted user',
  'admin',
  'superuser',
  'presenter',
];

let admin: Awaited<ReturnType<typeof addStaff>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let presenter: Awaited<ReturnType<typeof addStaff>>;
const dead: Partial<Record<CallerState, Record<string, string>>> = {};

beforeAll(async () => {
  admin = await addStaff(t.db, 'matrix-admin', 'admin');
  superuser = await addStaff(t.db, 'matrix-super', 'superuser');
  presenter = await addStaff(t.db, 'matrix-presenter', 'presenter');

  const expired = await openSession(t.db, admin.id);
  await t.db
    .update(adminSessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(adminSessions.tokenHash, hashToken(expired.authorization.slice('Bearer '.length))));
  dead.expired = expired;

  const loggedOut = await openSession(t.db, superuser.id);
  expect(
    (await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: loggedOut })).statusCode,
  ).toBe(200);
  dead['revoked by logout'] = loggedOut;

  const quiet = await addStaff(t.db, 'matrix-deactivated', 'superuser');
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/toggle-status',
    headers: await openSession(t.db, superuser.id),
    payload: { userId: quiet.id, isActive: false },
  });
  dead['deactivated user'] = quiet.headers;

  const gone = await addStaff(t.db, 'matrix-deleted', 'superuser');
  await t.app.inject({
    method: 'DELETE',
    url: `/api/admin/users/${gone.id}`,
    headers: await openSession(t.db, superuser.id),
  });
  dead['deleted user'] = gone.headers;
});

/** Each call that may succeed gets its own fresh session, so logout or a password change cannot spoil the next. */
async function headersFor(state: CallerState): Promise<Record<string, string>> {
  switch (state) {
    case 'no token':
      return {};
    case 'garbage token':
      return bearer('garbage');
    case 'admin':
      return openSession(t.db, admin.id);
    case 'superuser':
      return openSession(t.db, superuser.id);
    case 'presenter':
      return openSession(t.db, presenter.id);
    default:
      return dead[state]!;
  }
}

type Expected = 'unauthenticated' | { forbidden: string } | 'allowed';

function expectedFor(route: ProtectedRoute, state: CallerState): Expected {
  if (state !== 'admin' && state !== 'superuser' && state !== 'presenter') return 'unauthenticated';
  if (route.access === 'signed-in') return 'allowed';
  // A presenter has only their own area; staff have none.
  if (route.access === 'presenter')
    return state === 'presenter' ? 'allowed' : { forbidden: 'Only presenters have a broadcast area' };
  if (state === 'presenter') return { forbidden: 'Presenters can only use My broadcast' };
  if (state === 'admin' && route.access === 'superuser') return { forbidden: 'Only a superuser can do this' };
  return 'allowed';
}

const probeUrl = (url: string) => url.replace(/:(\w+)/g, 'matrix-probe-$1');

describe('the route table', () => {
  it('holds every staff route the admin panel relies on', () => {
    const table = t.app.protectedRoutes.map((r) => `${r.method} ${r.url} ${r.access}`);
    expect(table).toEqual(
      expect.arrayContaining([
        'GET /api/admin/verify signed-in',
        'POST /api/admin/logout signed-in',
        'POST /api/admin/change-password signed-in',
        'GET /api/admin/presenters/me presenter',
        'POST /api/admin/presenters/me/source-password presenter',
        'POST /api/admin/accounts/:id/source-password superuser',
        'GET /api/admin/presenters staff',
        'POST /api/admin/create staff',
        'GET /api/admin/users superuser',
        'POST /api/admin/update-role superuser',
        'POST /api/admin/toggle-status superuser',
        'DELETE /api/admin/users/:id superuser',
        'GET /api/admin/station superuser',
        'PUT /api/admin/station superuser',
        'POST /api/admin/station/source-password superuser',
        'GET /api/admin/station/audio superuser',
        'PUT /api/admin/station/audio superuser',
        'POST /api/featured-content staff',
        'PUT /api/featured-content/:id staff',
        'DELETE /api/featured-content/:id staff',
        'POST /api/upload-image staff',
        'GET /api/email-subscribers staff',
        'GET /api/email-subscribers.csv staff',
        'GET /api/programs staff',
        'POST /api/programs staff',
        'PATCH /api/programs/:id staff',
        'DELETE /api/programs/:id staff',
        'GET /api/programs/one-offs staff',
        'POST /api/programs/one-offs staff',
        'DELETE /api/programs/one-offs/:id staff',
        'GET /api/library staff',
        'POST /api/library staff',
        'PATCH /api/library/:id staff',
        'DELETE /api/library/:id staff',
        'POST /api/library/:id/artwork staff',
        'POST /api/library/:id/preview staff',
        'POST /api/library/:id/publish staff',
      ]),
    );
  });

  it('refuses to register a route under /api/admin/ that does not say who may call it', async () => {
    const app = Fastify();
    await app.register(authPlugin, { findSessionUser: async () => null });
    expect(() => app.get('/api/admin/forgotten', async () => 'open')).toThrow(/must declare config.access/);
    await app.close();
  });
});

describe.each(t.app.protectedRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
  '%s',
  (_name, route) => {
    it.each(STATES)('%s', async (state) => {
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const res = await t.app.inject({
        method,
        url: probeUrl(route.url),
        headers: await headersFor(state),
        ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}),
      });
      const expected = expectedFor(route, state);
      if (expected === 'unauthenticated') {
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toMatch(/sign in/i);
      } else if (typeof expected === 'object') {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: expected.forbidden });
      } else {
        // Through the door: success, or the route's own answer to an empty probe (400 bad body, 404 unknown id).
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect([401, 403]).not.toContain(res.statusCode);
      }
    });
  },
);

describe('a presenter', () => {
  it('gets through only to their own area, their reports and their session, 403 at every other staff route', async () => {
    const through: string[] = [];
    for (const route of t.app.protectedRoutes) {
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const res = await t.app.inject({
        method,
        url: probeUrl(route.url),
        headers: await openSession(t.db, presenter.id),
        ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}),
      });
      if (res.statusCode === 403) expect(res.json().message).toMatch(/My broadcast|superuser/);
      else through.push(`${route.method} ${route.url}`);
    }
    // The reports answer a presenter over their own programmes only (features/reports).
    expect(through.sort()).toEqual([
      'GET /api/admin/presenters/me',
      'GET /api/admin/reports/licence',
      'GET /api/admin/reports/licence/check',
      'GET /api/admin/reports/listeners',
      'GET /api/admin/verify',
      'POST /api/admin/change-password',
      'POST /api/admin/logout',
      'POST /api/admin/presenters/me/source-password',
    ]);
  });

  it('cannot send live captions with their session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/subtitles',
      headers: await openSession(t.db, presenter.id),
      payload: { language: 'en', text: 'Hello', timestamp: 1 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Presenters can only use My broadcast' });
  });
});

describe('request.staffUser', () => {
  it('reads the account fresh on every request', async () => {
    const headers = await openSession(t.db, admin.id);
    const verify = () => t.app.inject({ method: 'GET', url: '/api/admin/verify', headers });
    expect((await verify()).json().user.role).toBe('admin');
    await t.db.update(adminUsers).set({ role: 'superuser' }).where(eq(adminUsers.id, admin.id));
    expect((await verify()).json().user.role).toBe('superuser');
    await t.db.update(adminUsers).set({ role: 'admin' }).where(eq(adminUsers.id, admin.id));
  });
});
