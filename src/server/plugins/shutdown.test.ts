import type net from 'node:net';
import { expect, it } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { silentClient } from '../test/silent-ws-client.js';

it('stops within 2 s although a socket never answers the close, telling it 1001 first', async () => {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as net.AddressInfo).port;
  const client = await silentClient(port);
  const started = Date.now();
  await t.close();
  const took = Date.now() - started;
  expect(await client.closeCode()).toBe(1001);
  expect(took).toBeLessThan(2_000);
  expect((await client.ended) - started).toBeLessThan(2_000);
});
