import { get } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { readSendQueues, sendQueueKey } from './send-queues.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(() => t.close());

/** A connection that asks for `path` and then reads nothing, ever. */
function neverReading(path: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: station\r\n\r\n`);
    socket.pause();
  });
  socket.on('error', () => {});
  return socket;
}

it.runIf(process.platform === 'linux')(
  'drops a listener that never reads once its kernel queue passes the burst and slack, on every bitrate, and keeps one that reads',
  async () => {
    let received = 0;
    const reader = get(`http://127.0.0.1:${port}/stream`, (res) =>
      res.on('data', (c: Buffer) => (received += c.length)),
    );
    const stalled = neverReading('/stream');
    // Another bitrate's mount: its listeners are checked with the same read of the kernel's queues.
    const stalledLow = neverReading('/stream/64');
    const broadcaster = t.app.radio.broadcaster;
    const low = t.app.radio.mount(64)!;
    await expect.poll(() => broadcaster.listenerCount + low.listenerCount, { timeout: 10_000 }).toBe(3);

    // The kernel's own figure for the silent one grows while the reader's stays small.
    await expect
      .poll(async () => (await readSendQueues(port)).get(sendQueueKey('127.0.0.1', stalled.localPort)) ?? 0, {
        timeout: 30_000,
        interval: 1000,
      })
      .toBeGreaterThan(16_000);

    await expect.poll(() => broadcaster.stalledDropped, { timeout: 60_000, interval: 1000 }).toBe(1);
    await expect.poll(() => low.stalledDropped, { timeout: 60_000, interval: 1000 }).toBe(1);
    expect(broadcaster.listenerCount).toBe(1);
    expect(low.listenerCount).toBe(0);
    const before = received;
    await expect.poll(() => received, { timeout: 5000 }).toBeGreaterThan(before);
    reader.destroy();
    stalled.destroy();
    stalledLow.destroy();
  },
  150_000,
);
