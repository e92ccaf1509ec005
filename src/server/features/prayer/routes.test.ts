import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRAYER_TEXT } from '../../../common/prayer.js';
import { prayerRequests } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let pastor: Awaited<ReturnType<typeof addStaff>>;

const send = (payload: unknown, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/prayer-requests',
    payload: payload as object,
    remoteAddress: ip,
  });
const stored = () => t.db.select().from(prayerRequests);

beforeAll(async () => {
  t = await createTestApp();
  pastor = await addStaff(t.db, 'pastor', 'admin');
});
afterAll(() => t.close());

describe('POST /api/prayer-requests', () => {
  it('stores a request private, trimmed, with the name omitted when blank, and answers nothing readable', async () => {
    const res = await send({ name: '   ', request: '  Please pray for my mother.  ', isPrivate: 'false' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Prayer request received' });
    const [row] = await stored();
    expect(row).toMatchObject({ name: null, request: 'Please pray for my mother.', isPrivate: 'true' });
  });

  it.each([
    ['a blank request', { request: '   ' }, PRAYER_TEXT.blank],
    ['no request', { name: 'Ann' }, PRAYER_TEXT.blank],
    ['a request over 5,000 characters', { request: 'x'.repeat(5001) }, 'at most 5,000 characters'],
    ['a name over 100 characters', { request: 'Pray', name: 'n'.repeat(101) }, 'at most 100 characters'],
    ['a NUL in the request', { request: 'Pray\u0000' }, 'cannot be stored'],
    ['a number as the name', { request: 'Pray', name: 7 }, 'Name must be text'],
    [
      'isPrivate that is not a flag',
      { request: 'Pray', isPrivate: 'yes' },
      "isPrivate must be 'true' or 'false'",
    ],
  ])('refuses %s with a clear 400 and stores nothing', async (_case, body, message) => {
    const before = (await stored()).length;
    const res = await send(body, '10.0.0.2');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await stored()).toHaveLength(before);
  });

  it('answers any body with a 2xx or 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record({ request: fc.string({ unit: 'binary', maxLength: 60 }), name: fc.option(fc.string()) }),
        ),
        fc.integer({ min: 3, max: 250 }),
        async (body, host) => {
          const res = await send(body, `10.1.0.${host}`);
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('limits how many requests one address sends in an hour', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await send({ request: `Pray ${i}` }, '10.9.9.9')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('the staff inbox', () => {
  it('is never readable without a valid staff token', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      for (const [method, url] of [
        ['GET', '/api/prayer-requests'],
        ['POST', '/api/prayer-requests/abc/prayed'],
        ['DELETE', '/api/prayer-requests/abc'],
        ['GET', '/api/prayer-requests/unread-count'],
        ['POST', '/api/prayer-requests/read'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.body).not.toContain('mother');
      }
    }
  });

  it('lists newest first, marks one prayed for with who and when, filters, and deletes', async () => {
    await send({ request: 'Newest request', name: 'Joy' }, '10.3.0.1');
    const list = await t.app.inject({ method: 'GET', url: '/api/prayer-requests', headers: pastor.headers });
    expect(list.statusCode).toBe(200);
    const [newest] = list.json();
    expect(newest).toMatchObject({ request: 'Newest request', name: 'Joy', prayedAt: null, prayedBy: null });

    const prayed = await t.app.inject({
      method: 'POST',
      url: `/api/prayer-requests/${newest.id}/prayed`,
      headers: pastor.headers,
    });
    expect(prayed.statusCode).toBe(200);
    expect(prayed.json()).toMatchObject({ id: newest.id, prayedBy: 'pastor', prayedAt: expect.any(String) });

    const filtered = async (status: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/prayer-requests?status=${status}`,
          headers: pastor.headers,
        })
      ).json() as { id: string }[];
    expect((await filtered('prayed')).map((r) => r.id)).toEqual([newest.id]);
    expect((await filtered('open')).map((r) => r.id)).not.toContain(newest.id);

    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/prayer-requests?status=all',
      headers: pastor.headers,
    });
    expect(bad.statusCode).toBe(400);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/prayer-requests/${newest.id}`,
      headers: pastor.headers,
    });
    expect(del.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/prayer-requests/${newest.id}`,
      headers: pastor.headers,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Prayer request not found' });
  });

  it.each(['%00', 'a%20b', 'a.b'])('refuses the id %s with a 400', async (id) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/prayer-requests/${id}/prayed`,
      headers: pastor.headers,
    });
    expect(res.statusCode).toBe(400);
  });

  it('counts the requests no staff member has seen, and marks read only those up to what staff saw', async () => {
    const unread = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/prayer-requests/unread-count',
          headers: pastor.headers,
        })
      ).json().unread as number;
    const read = (upTo: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/prayer-requests/read',
        headers: pastor.headers,
        payload: { upTo },
      });
    await read(new Date().toISOString());
    expect(await unread()).toBe(0);

    await send({ request: 'Seen one' }, '10.4.0.1');
    const [seen] = (
      await t.app.inject({ method: 'GET', url: '/api/prayer-requests', headers: pastor.headers })
    ).json();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await send({ request: 'Came in after' }, '10.4.0.2');
    expect(await unread()).toBe(2);

    const after = await read(seen.createdAt);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ unread: 1 });

    for (const bad of ['yesterday', 42, null, '2026-13-01T00:00:00Z']) {
      const res = await read(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await unread()).toBe(1);
  });
});
