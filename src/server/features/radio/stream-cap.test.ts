import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ MAX_LISTENERS_PER_ADDRESS: '2' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(() => t.close());

const open = () =>
  new Promise<{ res: IncomingMessage; req: ClientRequest; body: () => Promise<string> }>(
    (resolve, reject) => {
      const req = get(`${base}/stream`, (res) =>
        resolve({
          res,
          req,
          body: async () => {
            let text = '';
            for await (const chunk of res) text += String(chunk);
            return text;
          },
        }),
      );
      req.on('error', reject);
    },
  );

it('answers 429 to one address beyond its cap of listeners at once, and lets it in again when one leaves', async () => {
  const first = await open();
  const second = await open();
  expect([first.res.statusCode, second.res.statusCode]).toEqual([200, 200]);
  const third = await open();
  expect(third.res.statusCode).toBe(429);
  expect(third.res.headers['retry-after']).toBe('30');
  expect(JSON.parse(await third.body()).message).toBe(
    'Too many listeners from this address (at most 2 at once)',
  );

  first.req.destroy();
  await expect
    .poll(async () => {
      const again = await open();
      again.req.destroy();
      return again.res.statusCode;
    })
    .toBe(200);
  second.req.destroy();
});

it('refuses a cap that is not a whole number of at least 1 at start-up', async () => {
  await expect(createTestApp({ MAX_LISTENERS_PER_ADDRESS: '0' })).rejects.toThrow(
    /MAX_LISTENERS_PER_ADDRESS/,
  );
});
