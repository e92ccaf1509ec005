import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../test/helpers.js';

const PASSWORD = 'correct-horse';
const LIMIT = 10;
const auth = (password: string) => `Basic ${Buffer.from(`source:${password}`).toString('base64')}`;

let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;

beforeAll(async () => {
  // Only Date is faked: the limits' clock moves when the test says, sockets and timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'] });
  t = await createTestApp({ SOURCE_PASSWORD: PASSWORD });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});
// Each case starts a day later, when every earlier count has lapsed.
beforeEach(() => vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000));

/** One request over a raw socket, as encoders send them; resolves with the whole answer. */
function send(head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      // An accepted source stays open: the answer's head is all we need.
      if (/^HTTP\/1\.[01] 200/.test(text) && text.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.write(head);
  });
}

// Each way an encoder presents the password; a text body is refused after the password (403) so the
// right password shows without going live.
const ways = [
  [
    'an unframed SOURCE',
    (pw: string) =>
      `SOURCE /stream HTTP/1.0\r\nAuthorization: ${auth(pw)}\r\nContent-Type: text/plain\r\n\r\n`,
    403,
  ],
  [
    'an unframed PUT',
    (pw: string) =>
      `PUT /stream HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth(pw)}\r\nContent-Type: text/plain\r\nExpect: 100-continue\r\n\r\n`,
    403,
  ],
  [
    'a framed PUT',
    (pw: string) =>
      `PUT /stream HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth(pw)}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
    403,
  ],
  [
    'the metadata call',
    (pw: string) =>
      `GET /admin/metadata?mount=/stream&mode=updinfo&song=Hymn HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth(pw)}\r\nConnection: close\r\n\r\n`,
    400,
  ],
] as const;

const status = (answer: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1]);

describe('guessing the live-input password', () => {
  it.each(ways)(
    'through %s: 10 wrong tries, then a wait even for the right one, then the right one works',
    async (_way, request, accepted) => {
      for (let i = 0; i < LIMIT; i++) expect(status(await send(request(`guess-${i}`)))).toBe(401);
      const held = await send(request(PASSWORD));
      expect(status(held)).toBe(429);
      expect(held).toMatch(/Too many wrong source passwords\. Please wait 15 minutes and try again\./);
      const retryAfter = Number(/\r\nRetry-After: (\d+)\r\n/i.exec(held)?.[1]);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(status(await send(request('another-guess')))).toBe(429);

      vi.setSystemTime(Date.now() + retryAfter * 1000);
      expect(status(await send(request(PASSWORD)))).toBe(accepted);
    },
  );

  it.each(ways)('through %s: the right password never counts', async (_way, request, accepted) => {
    for (let i = 0; i < 3 * LIMIT; i++) expect(status(await send(request(PASSWORD)))).toBe(accepted);
    for (let i = 0; i < LIMIT; i++) expect(status(await send(request(`guess-${i}`)))).toBe(401);
  });

  it('does not count a request for another mount', async () => {
    const other = `SOURCE /other HTTP/1.0\r\nAuthorization: ${auth('guess')}\r\n\r\n`;
    for (let i = 0; i < 3 * LIMIT; i++) expect(status(await send(other))).toBe(404);
    expect(status(await send(ways[0][1]('guess')))).toBe(401);
  });
});
