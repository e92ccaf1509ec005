import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp } from '../test/helpers.js';
import { INSTANCE_HEADER } from './instance-name.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let single: TestApp;
let web: TestApp;

beforeAll(async () => {
  single = await createTestApp();
  // A web instance's config; the test hands it a local bus, so nothing is reached at these addresses.
  web = await createTestApp({
    STATION_ROLE: 'web',
    DATABASE_URL: 'postgres://u@db:5432/radio',
    REDIS_URL: 'redis://redis:6379',
    BROADCASTER_URL: 'http://127.0.0.1:9',
  });
});
afterAll(async () => {
  await single?.close();
  await web?.close();
});

describe('X-Station-Instance', () => {
  it('names the instance on every answer of a web instance, the /ws handshake included', async () => {
    const first = await web.app.inject({ url: '/healthz' });
    const name = first.headers[INSTANCE_HEADER];
    expect(name).toMatch(/^[0-9a-f]{8}$/);
    expect((await web.app.inject({ url: '/api/no-such-route' })).headers[INSTANCE_HEADER]).toBe(name);

    const address = await web.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/ws`);
    const upgrade = await new Promise<IncomingMessage>((resolve, reject) => {
      socket.once('upgrade', resolve);
      socket.once('error', reject);
    });
    socket.terminate();
    expect(upgrade.headers[INSTANCE_HEADER]).toBe(name);
  });

  it('is not sent by a station that runs in one process', async () => {
    const response = await single.app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.headers[INSTANCE_HEADER]).toBeUndefined();
  });
});
