import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { loginBodySchema } from '../../../common/admin.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

/**
 * Bad input at every staff route with a body, and at sign-in: always a 4xx with a message, never a 5xx,
 * and not one row anywhere changes. "Bad" means what the route's own contract refuses, so the generator
 * can be wild without ever producing a body that would rightly be stored.
 */
const t = await createTestApp({ TRUST_PROXY: 'true' });
afterAll(() => t.close());

let headers: Record<string, string>;
beforeAll(async () => {
  headers = (await addStaff(t.db, 'fuzz-super', 'superuser')).headers;
});

/** Every row of every table of ours, in a stable order. */
async function snapshot() {
  const query = async <Row>(statement: SQL) =>
    ((await t.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  const names = await query<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const tables: Record<string, string[]> = {};
  for (const { table_name } of names) {
    const rows = await query<object>(sql.raw(`select * from "${table_name}"`));
    tables[table_name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return tables;
}

/** Valid bodies for routes we know, so near-misses (one field wrong or missing) are tried too. */
const TEMPLATES: Record<string, Record<string, unknown>> = {
  'POST /api/admin/login': { username: 'fuzz-super', password: 'a-password' },
  'POST /api/admin/change-password': {
    currentPassword: 'x',
    newPassword: 'abcdefgh',
    confirmPassword: 'abcdefgh',
  },
  'POST /api/admin/create': { username: 'newcomer', password: 'abcdefgh', role: 'admin' },
  'POST /api/admin/update-role': { userId: 'u', role: 'admin' },
  'POST /api/admin/toggle-status': { userId: 'u', isActive: false },
  'PUT /api/admin/station': {
    name: 'N',
    networkName: 'M',
    networkUrl: 'https://example.org',
    timeZone: 'UTC',
  },
  'PUT /api/admin/station/audio': {
    loudness_target_lufs: -16,
    true_peak_dbtp: -1,
    crossfade_seconds: 2,
    bitrates: [128, 64],
  },
  'POST /api/featured-content': {
    title: 't',
    description: 'd',
    type: 'sermon',
    imageUrl: null,
    audioUrl: null,
  },
  'PUT /api/featured-content/:id': {
    title: 't',
    description: 'd',
    type: 'sermon',
    speaker: 's',
    duration: '3:07',
    imageUrl: null,
    audioUrl: null,
  },
  'POST /api/programs': { title: 't', speaker: 's', startTime: '12:00', duration: 60, dayOfWeek: 'monday' },
  'PATCH /api/programs/:id': { title: 't', startTime: '12:00', duration: 60, isActive: true },
  'PATCH /api/library/:id': { title: 't', artist: 'a', album: 'b', kind: 'music' },
  'POST /api/library/:id/publish': { title: 't', description: 'd' },
  'POST /api/programs/one-offs': {
    kind: 'add',
    date: '2030-01-07',
    title: 't',
    speaker: 's',
    startTime: '12:00',
    duration: 60,
  },
};

const nasty = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    '',
    '   ',
    '\u0000',
    'x'.repeat(100_000),
    [],
    {},
    { $ne: null },
    "' or 1=1 --",
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

function nearMiss(template: Record<string, unknown>) {
  const keys = Object.keys(template);
  return fc
    .record({ key: fc.constantFrom(...keys), value: nasty, drop: fc.boolean() })
    .map(({ key, value, drop }) => {
      const body: Record<string, unknown> = { ...template };
      if (drop) delete body[key];
      else body[key] = value;
      return body;
    });
}

const bodiesFor = (name: string) => {
  const template = TEMPLATES[name];
  const wild = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.string({ maxLength: 12 }), nasty, { maxKeys: 6 }),
  );
  return template ? fc.oneof(wild, nearMiss(template)) : wild;
};

const isRefusedBy = (schema: unknown, body: unknown) =>
  !(schema && typeof (schema as ZodType).safeParse === 'function') ||
  !(schema as ZodType).safeParse(body).success;

async function expectBadBodiesRefused(method: string, url: string, schema: unknown, withToken: boolean) {
  const name = `${method} ${url}`;
  const before = await snapshot();
  await fc.assert(
    fc.asyncProperty(bodiesFor(name), fc.stringMatching(/^[\w-]{1,40}$/), async (body, id) => {
      fc.pre(isRefusedBy(schema, body));
      const res = await t.app.inject({
        method: method as 'POST',
        url: url.replace(/:\w+/g, id),
        headers: {
          ...(withToken ? headers : {}),
          'content-type': 'application/json',
          'x-forwarded-for': '198.51.100.99',
        },
        payload: JSON.stringify(body),
      });
      expect(
        res.statusCode,
        `${name} ${JSON.stringify(body).slice(0, 200)} -> ${res.body}`,
      ).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(typeof res.json().message).toBe('string');
    }),
    { numRuns: 60 },
  );
  expect(await snapshot()).toEqual(before);
}

describe('bad bodies', () => {
  it('at sign-in: 4xx, nothing changed', async () => {
    await expectBadBodiesRefused('POST', '/api/admin/login', loginBodySchema, false);
  });

  const routes = t.app.protectedRoutes.filter((route) => route.bodySchema);
  it('are aimed at every staff route with a body', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(Object.keys(TEMPLATES).filter((name) => name !== 'POST /api/admin/login')),
    );
  });

  it.each(routes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    'at %s: 4xx, nothing changed',
    async (_name, route) => {
      await expectBadBodiesRefused(route.method, route.url, route.bodySchema, true);
    },
  );

  it('even bodies the contract accepts, with any text in them, never cause a 5xx', async () => {
    // Characters that trip databases and parsers (NUL, lone surrogates, controls) mixed with ordinary text.
    const awkward = fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udfff',
      '\u001b',
      '\u202e',
      '\ufeff',
      '%',
      "'",
      '"',
      '\\',
      'é',
      '😀',
      ' ',
    );
    const texty = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: awkward, minLength: 1, maxLength: 8 }),
    );
    const names = [
      'POST /api/featured-content',
      'PUT /api/featured-content/:id',
      'PUT /api/admin/station',
      'POST /api/admin/update-role',
      'POST /api/admin/create',
      'POST /api/admin/login',
    ];
    for (const name of names) {
      const [method, url] = name.split(' ') as [string, string];
      const template = TEMPLATES[name]!;
      const bodies = fc.record(
        Object.fromEntries(
          Object.entries(template).map(([key, value]) => [
            key,
            typeof value === 'string'
              ? fc.oneof(
                  fc.constant(value),
                  texty,
                  texty.map((x) => value + x),
                )
              : fc.constant(value),
          ]),
        ),
      );
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const res = await t.app.inject({
            method: method as 'POST',
            url: url.replace(':id', 'x'),
            headers,
            payload: body,
          });
          expect(res.statusCode, `${name} ${JSON.stringify(body)} -> ${res.body}`).toBeLessThan(500);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('at the image upload: anything that is not a picture is refused and nothing is stored', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 4096 }),
        fc.constantFrom('image', 'file', ''),
        async (bytes, field) => {
          const boundary = `b${randomBytes(6).toString('hex')}`;
          const payload = Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
            ),
            Buffer.from(bytes),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/upload-image',
            headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
            payload,
          });
          expect(res.statusCode).toBe(400);
        },
      ),
      { numRuns: 40 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('with ids that are not ours at the staff routes that take one: 4xx, nothing changed', async () => {
    const before = await snapshot();
    const withIds = t.app.protectedRoutes.filter(
      (route) => route.url.includes('/:') && route.method === 'DELETE',
    );
    expect(withIds.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withIds),
        fc.string({ minLength: 1, maxLength: 60 }),
        async (route, id) => {
          const res = await t.app.inject({
            method: 'DELETE',
            url: route.url.replace(/:\w+/g, encodeURIComponent(id)),
            headers,
          });
          expect(res.statusCode, `${route.url} ${JSON.stringify(id)} -> ${res.body}`).toBeGreaterThanOrEqual(
            400,
          );
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
    expect(await snapshot()).toEqual(before);
  });
});
