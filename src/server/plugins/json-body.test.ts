import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { addStaff } from '../test/staff.js';
import { INVALID_UTF8_MESSAGE, LONE_SURROGATE_MESSAGE } from './json-body.js';

/** Every write route the station registers, collected as they are added (as the fuzz suite does). */
const writes: { method: HTTPMethods; url: string }[] = [];
let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      onRoute(route: RouteOptions) {
        for (const method of ([] as HTTPMethods[]).concat(route.method as HTTPMethods | HTTPMethods[]))
          if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) writes.push({ method, url: route.url });
      },
    },
  );
  superuser = (await addStaff(t.db, 'utf8-keeper', 'superuser')).headers;
}, 60_000);
afterAll(() => t.close());

const send = (route: { method: HTTPMethods; url: string }, payload: Buffer | string) =>
  t.app.inject({
    method: route.method as InjectOptions['method'],
    url: route.url.replace(/:[A-Za-z]+|\*/g, 'x'),
    headers: { ...superuser, 'content-type': 'application/json' },
    payload,
  });

describe('JSON bodies', () => {
  it('found the write routes', () => {
    expect(writes.length).toBeGreaterThan(20);
  });

  it.each([
    [
      'bytes that are not UTF-8',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xc3, 0x22, 0x7d]),
      INVALID_UTF8_MESSAGE,
    ],
    [
      'a truncated UTF-8 sequence',
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]),
      INVALID_UTF8_MESSAGE,
    ],
    [
      'an overlong encoding of "/"',
      Buffer.concat([Buffer.from('{"path":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      INVALID_UTF8_MESSAGE,
    ],
    ['a lone high surrogate escape', '{"message":"hi \\ud800"}', LONE_SURROGATE_MESSAGE],
    ['a lone low surrogate escape in a key', '{"\\udc00":"x"}', LONE_SURROGATE_MESSAGE],
    ['a lone surrogate deep in a list', '{"words":["ok",{"a":["\\udbff"]}]}', LONE_SURROGATE_MESSAGE],
  ])('refuses %s with a 400 on every write route that takes JSON', async (_case, payload, message) => {
    let checked = 0;
    for (const route of writes) {
      // Only routes that parse a JSON body (malformed JSON gets its 400): others have their own parsers
      // (forms, uploads) or refuse before reading any body (the live source's key).
      if (!(await send(route, '{')).body.includes('The request body is not valid JSON')) continue;
      const res = await send(route, payload);
      expect({ route, status: res.statusCode, body: res.json() }).toEqual({
        route,
        status: 400,
        body: { message },
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('still takes well-formed text, surrogate pairs and a byte order mark included', async () => {
    const words = ['Zoë', '🙏'];
    const res = await send(
      { method: 'PUT', url: '/api/chat/blocked-words' },
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ words }))]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ words });
  });
});
