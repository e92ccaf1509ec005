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

it.runIf(process.platform === 'linux')(
  'drops a listener that never reads once its kernel queue passes the burst and slack, and keeps one that reads',
  async () => {
    let received = 0;
    const reader = get(`http://127.0.0.1:${port}/stream`, (res) =>
      res.on('data', (c: Buffer) => (received += c.length)),
    );
    const stalled = net.connect(port, '127.0.0.1', () => {
      stalled.write('GET /stream HTTP/1.1\r\nHost: station\r\n\r\n');
      stalled.pause(); // reads nothing, ever
    });
    stalled.on('error', () => {});
    const broadcaster = t.app.radio.broadcaster;
    await expect.poll(() => broadcaster.listenerCount, { timeout: 10_000 }).toBe(2);

    // The kernel's own figure for the silent one grows while the reader's stays small.
    await expect
      .poll(async () => (await readSendQueues(port)).get(sendQueueKey('127.0.0.1', stalled.localPort)) ?? 0, {
        timeout: 30_000,
        interval: 1000,
      })
      .toBeGreaterThan(16_000);

    await expect.poll(() => broadcaster.stalledDropped, { timeout: 60_000, interval: 1000 }).toBe(1);
    expect(broadcaster.listenerCount).toBe(1);
    const before = received;
    await expect.poll(() => received, { timeout: 5000 }).toBeGreaterThan(before);
    reader.destroy();
    stalled.destroy();
  },
  90_000,
);
