import { get, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { MIN_LISTENER_SECONDS } from '../../../common/as-run.js';
import type { ListenerReport } from '../../../common/reports.js';
import { createTestApp } from '../../test/helpers.js';
import { realCountryDatabase } from '../../test/real-geoip.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let base: string;
let admin: Record<string, string>;
const open: ClientRequest[] = [];

beforeAll(async () => {
  // Listeners' addresses come from the proxy in front (X-Forwarded-For), as on a real deployment.
  t = await createTestApp({
    GEOIP_DB: await realCountryDatabase(),
    TRUST_PROXY: 'true',
    STATION_TIMEZONE: 'UTC',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = (await addStaff(t.db, 'board-secretary', 'admin')).headers;
  await t.app.nowPlaying.start();
}, 240_000);
afterAll(async () => {
  vi.useRealTimers();
  for (const req of open) req.destroy();
  await t?.close();
});

const listenFrom = (address: string) =>
  new Promise<number>((resolve, reject) => {
    const req = get(`${base}/stream`, { headers: { 'x-forwarded-for': address } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    open.push(req);
  });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

it("breaks the listener report down by the country of each listener's public address, from a real GeoLite2 file", async () => {
  // Public resolvers and registries whose country is well known, IPv4 and IPv6, and a private address.
  for (const address of [
    '8.8.8.8', // Google, United States
    '2001:4860:4860::8888', // Google over IPv6, United States
    '1.1.1.1', // APNIC's research prefix, Australia
    '193.0.6.139', // RIPE NCC, the Netherlands
    '200.160.2.3', // NIC.br, Brazil
    '10.1.2.3', // a private address: a listener with no country
  ])
    expect(await listenFrom(address)).toBe(200);
  await vi.waitFor(() => expect(t.app.listenerSessions.size).toBe(6));

  // They stay long enough to count as listeners: the clock moves on, then the station ends every session.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (MIN_LISTENER_SECONDS + 1) * 1000 });
  await t.app.listenerSessions.closeAll();
  vi.useRealTimers();

  const res = await t.app.inject({
    url: `/api/admin/reports/listeners?from=${day(-1)}&to=${day(1)}`,
    headers: admin,
  });
  expect(res.statusCode).toBe(200);
  const report = res.json<ListenerReport>();
  expect(report.sessions).toBe(6);
  expect(
    report
      .countries!.map(({ country, sessions }) => ({ country, sessions }))
      .sort((a, b) => a.country.localeCompare(b.country)),
  ).toEqual([
    { country: 'AU', sessions: 1 },
    { country: 'BR', sessions: 1 },
    { country: 'NL', sessions: 1 },
    { country: 'US', sessions: 2 },
  ]);
  expect(report.countries![0]).toMatchObject({ country: 'US', hours: 0.01 });
});
