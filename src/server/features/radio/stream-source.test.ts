import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let admin: Awaited<ReturnType<typeof addStaff>>;
let elsewhere: Server;
let origin: string;

beforeAll(async () => {
  // A station elsewhere: /live plays MP3, /page is a web page.
  elsewhere = createServer((req, res) => {
    if (req.url === '/live') {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(4096));
      return; // a stream never ends by itself
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Welcome</p>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  t = await createTestApp();
  superuser = await addStaff(t.db, 'steward', 'superuser');
  admin = await addStaff(t.db, 'deacon', 'admin');
});
afterAll(async () => {
  await t.close();
  elsewhere.closeAllConnections();
  await new Promise((resolve) => elsewhere.close(resolve));
});

const put = (streamSource: unknown, headers: Record<string, string> = superuser.headers) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/stream-source', headers, payload: { streamSource } });
const streamUrl = async () =>
  (await t.app.inject({ url: '/api/radio/stream-url' })).json().streamUrl as string;

describe('the Station tab stream source', () => {
  it('puts a station elsewhere on air at once once it answers with audio, and back to the built-in one', async () => {
    expect(
      (await t.app.inject({ url: '/api/admin/stream-source', headers: superuser.headers })).json(),
    ).toEqual({
      streamSource: null,
    });
    const res = await put(`icecast:${origin}/live`);
    expect(res.statusCode).toBe(200);
    expect(await streamUrl()).toBe(`${origin}/live`);
    const stream = await t.app.inject({ url: '/stream' });
    expect(stream.statusCode).toBe(302);
    expect(stream.headers.location).toBe(`${origin}/live`);
    const page = await t.app.inject({ url: '/api/station' });
    expect(String(page.headers['content-security-policy'])).toContain(
      `media-src 'self' blob: data: ${origin}`,
    );
    expect(
      (await t.app.inject({ url: '/api/admin/stream-source', headers: superuser.headers })).json(),
    ).toEqual({
      streamSource: `icecast:${origin}/live`,
    });

    expect((await put(null)).statusCode).toBe(200);
    expect(await streamUrl()).toMatch(/\/stream$/);
    expect(
      String((await t.app.inject({ url: '/api/station' })).headers['content-security-policy']),
    ).not.toContain(origin);
  });

  it.each([
    ['a web page', () => `url:${origin}/page`, 'not audio'],
    ['an address nobody answers', () => 'url:http://127.0.0.1:9/live', 'could not be reached'],
    ["the station's own stream", () => 'url:http://localhost:80/stream', 'own address'],
  ])('refuses %s with a clear 400 and keeps what is on air', async (_case, value, message) => {
    const before = await streamUrl();
    const res = await put(value());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await streamUrl()).toBe(before);
  });

  it.each([
    ['no scheme', 'http://radio.example/live'],
    ['another scheme', 'ftp:ftp://radio.example/live'],
    ['a number', 5],
    ['a space in the address', 'url:http://radio example/live'],
  ])('refuses %s with a 400 naming the rule', async (_case, value) => {
    const res = await put(value);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Stream source must/);
  });

  it('is for superusers only', async () => {
    expect((await put(null, admin.headers)).statusCode).toBe(403);
    expect((await put(null, {})).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/stream-source' })).statusCode).toBe(401);
  });
});
