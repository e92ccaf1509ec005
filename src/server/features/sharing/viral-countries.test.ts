import { get, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';

const fixture = path.join(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../test/geoip/test-countries.mmdb',
);
let t: Awaited<ReturnType<typeof createTestApp>>;
let base: string;
const open: ClientRequest[] = [];

beforeAll(async () => {
  // Listeners' addresses come from the proxy in front, as on a real deployment.
  t = await createTestApp({ GEOIP_DB: fixture, TRUST_PROXY: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(async () => {
  for (const req of open) req.destroy();
  await t.close();
});

const listenFrom = (address: string) =>
  new Promise<number>((resolve, reject) => {
    const req = get(`${base}/stream`, { headers: { 'x-forwarded-for': address } }, (res) =>
      resolve(res.statusCode!),
    );
    req.on('error', reject);
    open.push(req);
  });

it("counts the countries today's listeners came from, with the GeoIP database the station was given", async () => {
  const countries = async () => (await t.app.inject({ url: '/api/viral-stats' })).json().countries;
  expect(await countries()).toBe(0);
  for (const address of ['198.51.100.4', '203.0.113.8', '198.51.100.5', '10.1.2.3'])
    expect(await listenFrom(address)).toBe(200);
  // Brazil twice and Kenya; a private address has no country.
  expect(await countries()).toBe(2);
});
