import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';

// The player's preload is a HEAD of the stream address (the address play then uses): it must not be
// counted as a listener, and it must leave its connection open for play's GET, as a browser reuses it.

let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;
let accepted = 0;

beforeAll(async () => {
  t = await createTestApp();
  t.app.server.on('connection', () => accepted++);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(() => t.close());

/**
 * One HTTP/1.1 connection written by hand, as a browser's pooled socket: each request waits for the
 * response's head (a HEAD response is only that; Node's own client closes after one without a length).
 */
async function openConnection() {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  let closed = false;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = async (done: () => boolean) => {
    while (!done()) {
      if (closed) throw new Error('the station closed the connection');
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return {
    socket,
    async send(method: 'HEAD' | 'GET', path: string) {
      received = Buffer.alloc(0);
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: */*\r\n\r\n`);
      await until(() => received.includes('\r\n\r\n'));
      const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString();
      const [status, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const bodyAt = received.indexOf('\r\n\r\n') + 4;
      return {
        status: Number(status!.split(' ')[1]),
        headers,
        /** Waits for `bytes` of body after the head. */
        body: (bytes: number) => until(() => received.length - bodyAt >= bytes),
      };
    },
    isClosed: () => closed,
  };
}

const figures = async () => {
  const stats = await t.app.inject({ method: 'GET', url: '/api/radio/stats' });
  const current = await t.app.inject({ method: 'GET', url: '/api/radio/current' });
  return {
    listeners: (stats.json() as { listeners: number }).listeners,
    peakToday: (stats.json() as { peakToday: number }).peakToday,
    nowPlaying: (current.json() as { listeners: number }).listeners,
  };
};

it('counts the warm-up as nobody, and play reuses its connection as the one listener', async () => {
  const path = '/stream?quality=128&t=1700000000000';
  const connection = await openConnection();

  const warm = await connection.send('HEAD', path);
  expect(warm.status).toBe(200);
  expect(warm.headers['content-type']).toBe('audio/mpeg');
  expect(warm.headers.connection).toBe('keep-alive');
  expect(await figures()).toEqual({ listeners: 0, peakToday: 0, nowPlaying: 0 });
  // Nor does it add to the minute's figures (the Listeners tab's peak and listening time).
  expect(t.app.radio.meter.rollMinute()).toMatchObject({ listeners: 0, peak: 0, listeningSeconds: 0 });

  const play = await connection.send('GET', path);
  expect(play.status).toBe(200);
  expect(play.headers.connection).toBe('close');
  await play.body(1000);
  expect(accepted).toBe(1);
  expect(await figures()).toEqual({ listeners: 1, peakToday: 1, nowPlaying: 1 });

  connection.socket.destroy();
  await expect.poll(async () => (await figures()).listeners).toBe(0);
});
