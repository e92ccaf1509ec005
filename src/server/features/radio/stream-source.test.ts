import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

const REFUSED = 'Not saved: that address cannot be used as the stream source.';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let admin: Awaited<ReturnType<typeof addStaff>>;
let elsewhere: Server;
let origin: string;
/** The port the station itself listens on. */
let port: number;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://radio.example.org' });
  await t.app.listen({ port: 0, host: '0.0.0.0' });
  port = (t.app.server.address() as AddressInfo).port;
  // A station elsewhere on this machine's network: /live plays MP3, /page is a web page, the rest redirect.
  const redirects: Record<string, () => string> = {
    '/hop': () => '/live',
    '/to-the-station': () => `http://localhost:${port}/stream`,
    '/to-metadata': () => 'http://169.254.169.254/latest/meta-data/',
  };
  elsewhere = createServer((req, res) => {
    if (req.url === '/live') {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(4096));
      return; // a stream never ends by itself
    }
    const to = redirects[req.url ?? ''];
    if (to) return res.writeHead(302, { location: to() }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Welcome</p>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  superuser = await addStaff(t.db, 'steward', 'superuser');
  admin = await addStaff(t.db, 'deacon', 'admin');
});
afterAll(async () => {
  await t.close();
  elsewhere.closeAllConnections();
  await new Promise((resolve) => elsewhere.close(resolve));
});

const put = (body: Record<string, unknown>, headers: Record<string, string> = superuser.headers) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/stream-source', headers, payload: body });
const read = async () =>
  (await t.app.inject({ url: '/api/admin/stream-source', headers: superuser.headers })).json();
const streamUrl = async () =>
  (await t.app.inject({ url: '/api/radio/stream-url' })).json().streamUrl as string;
const relayed = () => t.app.radio.relayed?.address ?? null;

/** The machine's own addresses other than loopback, as the station's interfaces have them. */
const interfaceAddresses = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((entry) => !entry.internal && !entry.address.includes('%'))
  .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));

describe('the Station tab stream source', () => {
  it('relays a station on its private network once allowed and it answers with audio, and back', async () => {
    expect(await read()).toEqual({ streamSource: null, allowPrivateNetwork: false });
    const res = await put({ streamSource: `icecast:${origin}/live`, allowPrivateNetwork: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ streamSource: `icecast:${origin}/live`, allowPrivateNetwork: true });
    expect(relayed()).toBe(`${origin}/live`);
    // Relayed on our own stream: listeners are given our address and never sent to it, nor let fetch it.
    expect(await streamUrl()).toBe('https://radio.example.org/stream');
    const stream = await t.app.inject({ method: 'HEAD', url: '/stream' });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('audio/mpeg');
    const page = await t.app.inject({ url: '/api/station' });
    expect(String(page.headers['content-security-policy'])).not.toContain(origin);
    expect(await read()).toEqual({ streamSource: `icecast:${origin}/live`, allowPrivateNetwork: true });
    // A redirect on the same station elsewhere is followed, and checked.
    expect((await put({ streamSource: `url:${origin}/hop` })).statusCode).toBe(200);
    expect(relayed()).toBe(`${origin}/hop`);

    expect((await put({ streamSource: null })).statusCode).toBe(200);
    expect(relayed()).toBeNull();
    expect(await streamUrl()).toBe('https://radio.example.org/stream');
  });

  const own = (path: string) => () => `url:http://${path.replace('PORT', String(port))}`;
  it.each<[string, () => string]>([
    ['localhost', own('localhost:PORT/stream')],
    ['localhost with a trailing dot', own('localhost.:PORT/stream')],
    ['127.0.0.1', own('127.0.0.1:PORT/stream')],
    ['another address in 127.0.0.0/8', own('127.8.9.10:PORT/stream')],
    ['127.0.0.1 with a trailing dot', own('127.0.0.1.:PORT/stream')],
    ['::1', own('[::1]:PORT/stream')],
    ['0.0.0.0', own('0.0.0.0:PORT/stream')],
    ['[::]', own('[::]:PORT/stream')],
    ['::ffff:127.0.0.1', own('[::ffff:127.0.0.1]:PORT/stream')],
    ['decimal 2130706433', own('2130706433:PORT/stream')],
    ['hex 0x7f000001', own('0x7f000001:PORT/stream')],
    ['octal 0177.0.0.1', own('0177.0.0.1:PORT/stream')],
    ['PUBLIC_URL', () => 'url:https://radio.example.org/stream'],
    ['PUBLIC_URL spelled otherwise', () => 'icecast:https://RADIO.example.org.:443/stream'],
    ['the address staff reached it at', () => 'url:http://localhost:80/stream'],
    ...interfaceAddresses.map((address): [string, () => string] => [
      `its interface address ${address}`,
      own(`${address}:PORT/stream`),
    ]),
    ['a redirect to it', () => `url:${origin}/to-the-station`],
    ['a redirect to the cloud metadata address', () => `url:${origin}/to-metadata`],
    ['a web page', () => `url:${origin}/page`],
    ['a port nobody answers on', () => 'url:http://127.0.0.1:9/live'],
    ['a name that does not resolve', () => 'url:http://nowhere.invalid/live'],
    ['an address with credentials', () => `url:http://user:secret@${origin.slice(7)}/live`],
  ])(
    'refuses %s even with a private network allowed, with one neutral 400, keeping what is on air',
    async (_case, value) => {
      const before = relayed();
      const res = await put({ streamSource: value(), allowPrivateNetwork: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: REFUSED });
      expect(relayed()).toBe(before);
    },
  );

  it.each([
    ['a station on this machine', () => `icecast:${origin}/live`],
    ['10.0.0.0/8', () => 'url:http://10.1.2.3/live'],
    ['172.16.0.0/12', () => 'url:http://172.20.0.5:8000/live'],
    ['192.168.0.0/16', () => 'url:http://192.168.1.10:8000/live'],
    ['the cloud metadata address', () => 'url:http://169.254.169.254/latest/meta-data/'],
    ['link-local IPv4', () => 'url:http://169.254.10.20/live'],
    ['link-local IPv6', () => 'url:http://[fe80::1]/live'],
    ['unique local IPv6', () => 'url:http://[fd12:3456::1]/live'],
    ['IPv4 in NAT64 IPv6', () => 'url:http://[64:ff9b::7f00:1]/live'],
  ])('refuses %s while a private network is not allowed, with one neutral 400', async (_case, value) => {
    expect((await put({ streamSource: null, allowPrivateNetwork: false })).statusCode).toBe(200);
    const res = await put({ streamSource: value() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: REFUSED });
    expect(await read()).toEqual({ streamSource: null, allowPrivateNetwork: false });
  });

  it.each([
    ['no scheme', { streamSource: 'http://radio.example/live' }, /Stream source must/],
    ['another scheme', { streamSource: 'ftp:ftp://radio.example/live' }, /Stream source must/],
    ['a number', { streamSource: 5 }, /Stream source must/],
    ['a space in the address', { streamSource: 'url:http://radio example/live' }, /Stream source must/],
    [
      'a private network answer that is not true or false',
      { streamSource: null, allowPrivateNetwork: 'yes' },
      /Allow a private network must be true or false/,
    ],
  ])('refuses %s with a 400 naming the rule', async (_case, body, message) => {
    const res = await put(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it('is for superusers only', async () => {
    expect((await put({ streamSource: null }, admin.headers)).statusCode).toBe(403);
    expect((await put({ streamSource: null, allowPrivateNetwork: true }, {})).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/stream-source' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/stream-source', headers: admin.headers })).statusCode).toBe(
      403,
    );
  });
});
