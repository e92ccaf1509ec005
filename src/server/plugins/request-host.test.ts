import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioClips } from '../db/schema.js';
import { createTestApp } from '../test/helpers.js';
import { rawRequest } from '../test/raw-http.js';
import { isValidHost, privateCacheControl } from './request-host.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

const MALFORMED_HOSTS = [' ', 'a b', '[::1', 'x:99999', 'x:port', 'a/b', 'a@b', '[zz::1]', 'é.example'];
const PAGES = ['/', '/dashboard-mgmt', '/podcast.xml', '/no-such-page'];
const UPGRADE =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';

describe('a malformed Host or request line', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it.each(['example.org', 'radio.example:5000', '127.0.0.1:80', '[::1]:5000', 'localhost', 'my_host.lan'])(
    'takes %j as a host',
    (host) => expect(isValidHost(host)).toBe(true),
  );
  it.each(MALFORMED_HOSTS)('refuses %j as a host', (host) => expect(isValidHost(host)).toBe(false));

  const injected = MALFORMED_HOSTS.slice(0, 4).flatMap((host) =>
    [...PAGES, '/api/radio/stream-url', '/api/radio/current', '/api/clips/x', '/clips/x'].map(
      (url) => [host, url] as const,
    ),
  );
  it.each(injected)('answers Host %j on %s with a 400 and a message', async (host, url) => {
    const res = await t.app.inject({ url, headers: { host } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The Host header is not a valid host name' });
  });

  it.each(MALFORMED_HOSTS.slice(0, 4))('answers Host %j on HEAD /stream with a 400', async (host) => {
    const res = await t.app.inject({ method: 'HEAD', url: '/stream', headers: { host } });
    expect(res.statusCode).toBe(400);
  });

  // Over a real socket: the Host goes on the wire exactly as written.
  const raw = MALFORMED_HOSTS.slice(0, 4).flatMap((host) =>
    [
      ...PAGES.map((url) => `GET ${url} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      `GET /stream HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      `POST /api/admin/login HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      `GET /ws HTTP/1.1\r\nHost: ${host}\r\n${UPGRADE}\r\n`,
    ].map((text) => [host, text.split(' ', 2)[1]!, text] as const),
  );
  it.each(raw)('over a socket, answers Host %j on %s with a 400', async (_host, _url, text) => {
    const answer = await rawRequest(port, text, { headOnly: true });
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 400 /);
  });

  it.each(PAGES)('answers an HTTP/0.9 request line for %s with a 400 and closes', async (url) => {
    const answer = await rawRequest(port, `GET ${url}\r\n\r\n`);
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.body)).toEqual({
      message: 'HTTP/0.9 requests are not supported: use HTTP/1.0 or later',
    });
  });

  it('serves an HTTP/1.0 request without a Host, its links on the address it connected to', async () => {
    const answer = await rawRequest(port, 'GET /dashboard-mgmt HTTP/1.0\r\n\r\n');
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.body).toContain(`href="http://127.0.0.1:${port}/dashboard-mgmt"`);
  });

  it('refuses a malformed X-Forwarded-Host from a trusted proxy', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const res = await proxied.app.inject({ url: '/', headers: { 'x-forwarded-host': 'a b' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'The X-Forwarded-Host header is not a valid host name' });
    } finally {
      await proxied.close();
    }
  });
});

/** What a shared cache (a proxy, a CDN) may keep and hand to everyone. */
const sharedCacheMayStore = (headers: Record<string, unknown>) =>
  !/\b(private|no-store)\b/i.test(String(headers['cache-control'] ?? ''));
const variesOnHost = (headers: Record<string, unknown>) =>
  String(headers.vary ?? '')
    .split(',')
    .some((name) => name.trim().toLowerCase() === 'host');

describe('absolute links and the request host', () => {
  const apps: TestApp[] = [];
  let clipId = '';
  const open = async (env: Record<string, string> = {}) => {
    const t = await createTestApp(env);
    apps.push(t);
    const [clip] = await t.db
      .insert(audioClips)
      .values({ title: 'Psalm 23', duration: 10, audioUrl: '/api/clips/c/audio', fileSize: 1 })
      .returning();
    clipId = clip!.id;
    return t;
  };
  afterAll(() => Promise.all(apps.map((t) => t.close())));

  // Every route whose answer carries an absolute link built on the station's origin.
  const routes = () => [...PAGES, '/api/radio/stream-url', `/api/clips/${clipId}`, `/clips/${clipId}`];

  it('without PUBLIC_URL, a poisoned Host never reaches an answer a shared cache may keep', async () => {
    const t = await open();
    for (const url of routes()) {
      const res = await t.app.inject({ url, headers: { host: 'evil.example' } });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).toContain('http://evil.example');
      expect(sharedCacheMayStore(res.headers), `${url}: ${res.headers['cache-control']}`).toBe(false);
      expect(variesOnHost(res.headers), url).toBe(true);
    }
  });

  it('without PUBLIC_URL, the host a listener used gives correct absolute links, kept private', async () => {
    const t = await open();
    const get = (url: string) => t.app.inject({ url, headers: { host: 'radio.example:5000' } });
    expect((await get('/api/radio/stream-url')).json()).toEqual({
      streamUrl: 'http://radio.example:5000/stream',
      streams: [128, 96, 80, 64].map((kbps) => ({ kbps, url: `http://radio.example:5000/stream/${kbps}` })),
    });
    expect((await get('/dashboard-mgmt')).body).toContain('href="http://radio.example:5000/dashboard-mgmt"');
    expect((await get(`/api/clips/${clipId}`)).json().shareUrl).toBe(
      `http://radio.example:5000/clips/${clipId}`,
    );
    const feed = await get('/podcast.xml');
    expect(feed.body).toContain('<link>http://radio.example:5000/</link>');
    expect(feed.headers['cache-control']).toBe('private, max-age=300');
    expect(feed.headers.vary).toMatch(/Host/);
  });

  it('behind a trusted proxy, its scheme and host make the links', async () => {
    const t = await open({ TRUST_PROXY: 'true' });
    const res = await t.app.inject({
      url: '/api/radio/stream-url',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'radio.example.org' },
    });
    expect(res.json()).toMatchObject({ streamUrl: 'https://radio.example.org/stream' });
    expect(res.json().streams[3]).toEqual({ kbps: 64, url: 'https://radio.example.org/stream/64' });
  });

  it('with PUBLIC_URL, every link is built on it and the feed stays publicly cacheable', async () => {
    const t = await open({ PUBLIC_URL: 'https://radio.example.org/' });
    for (const url of routes()) {
      const res = await t.app.inject({ url, headers: { host: 'evil.example' } });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('evil.example');
      expect(res.body, url).toContain('https://radio.example.org/');
      expect(variesOnHost(res.headers), url).toBe(false);
    }
    const feed = await t.app.inject({ url: '/podcast.xml', headers: { host: 'evil.example' } });
    expect(feed.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('privateCacheControl', () => {
  it.each([
    ['public, max-age=300', 'private, max-age=300'],
    ['no-cache', 'private, no-cache'],
    [undefined, 'private, no-cache'],
    ['public, s-maxage=600, max-age=60', 'private, max-age=60'],
    ['private, no-store', 'private, no-store'],
  ])('turns %j into %j', (given, expected) => expect(privateCacheControl(given)).toBe(expected));
});
