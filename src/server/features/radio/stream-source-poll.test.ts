import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let elsewhere: Server;
let port: number;
/** Where the station elsewhere was asked for its status, in order. */
const asked: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  superuser = await addStaff(t.db, 'warden', 'superuser');
  // An Icecast elsewhere: /live plays, /status-json.xsl says what is on air, /moved sends the status on.
  elsewhere = createServer((req, res) => {
    if (req.url === '/live') {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(4096));
      return; // a stream never ends by itself
    }
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        icestats: {
          source: { listenurl: `http://localhost:${port}/live`, title: 'Choir - Psalm 23', listeners: 7 },
        },
      }),
    );
  });
  // `localhost` is a name: the station resolves it when it checks and again each time it polls.
  await new Promise<void>((resolve) => elsewhere.listen(0, 'localhost', resolve));
  port = (elsewhere.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  elsewhere.closeAllConnections();
  await new Promise((resolve) => elsewhere.close(resolve));
});

const current = async () => (await t.app.inject({ url: '/api/radio/current' })).json();

it("polls the saved source's status the way its address was checked: a name now on a private address is not asked once the setting refuses it", async () => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/stream-source',
    headers: superuser.headers,
    payload: { streamSource: `icecast:http://localhost:${port}/live`, allowPrivateNetwork: true },
  });
  expect(res.statusCode).toBe(200);
  // Allowed: the poll reaches it and its now playing is on air.
  await t.app.nowPlaying.start();
  expect(asked).toEqual(['/status-json.xsl']);
  expect(await current()).toMatchObject({
    current_track: { title: 'Psalm 23', artist: 'Choir' },
    listeners: 7,
  });

  // The name stands for an address the check refuses now (as after a DNS change, or the setting turned off):
  // the next poll never connects, and the last good now playing stays.
  await saveAllowPrivateNetworkSource(t.db, false);
  await t.app.nowPlaying.stop();
  await t.app.nowPlaying.start();
  expect(asked).toEqual(['/status-json.xsl']);
  expect(await current()).toMatchObject({ current_track: { title: 'Psalm 23' } });

  // Allowed again: asked again.
  await saveAllowPrivateNetworkSource(t.db, true);
  await t.app.nowPlaying.stop();
  await t.app.nowPlaying.start();
  expect(asked).toEqual(['/status-json.xsl', '/status-json.xsl']);
});
