import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../config.js';
import { createTestApp } from '../test/helpers.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Outcome =
  | { kind: 'open'; ws: WebSocket }
  | { kind: 'refused'; status: number; retryAfter?: string; body: string }
  | { kind: 'closed'; code: number; reason: string };

const CAP = 3;
let t: TestApp;
let url: string;

beforeAll(async () => {
  // The proxy in front says who the caller is, so one test machine can be several addresses.
  t = await createTestApp({ MAX_SOCKETS_PER_ADDRESS: String(CAP), TRUST_PROXY: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(() => t.close());

/**
 * A real socket from `address`: open once the station's first message (now playing) has come, refused
 * at the handshake, or closed by the station right after it opened.
 */
function connect(address: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { 'x-forwarded-for': address } });
    ws.once('message', () => resolve({ kind: 'open', ws }));
    ws.once('close', (code, reason) => resolve({ kind: 'closed', code, reason: reason.toString() }));
    ws.once('unexpected-response', (_request, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          kind: 'refused',
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body,
        }),
      );
    });
    ws.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

const opened = (outcome: Outcome) => {
  if (outcome.kind !== 'open') throw new Error(`expected an open socket, got ${JSON.stringify(outcome)}`);
  return outcome.ws;
};
const closeAll = (sockets: WebSocket[]) =>
  Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close();
        }),
    ),
  );
const serverConnections = () =>
  new Promise<number>((resolve) => t.app.server.getConnections((_error, count) => resolve(count)));

describe('/ws sockets per address', () => {
  it('refuses the socket beyond the cap with a 429 and the reason; closing one lets a new one in', async () => {
    const sockets = [];
    for (let i = 0; i < CAP; i++) sockets.push(opened(await connect('10.0.0.1')));

    const over = await connect('10.0.0.1');
    expect(over).toEqual({
      kind: 'refused',
      status: 429,
      retryAfter: '30',
      body: JSON.stringify({ message: `Too many connections from this address (at most ${CAP} at once)` }),
    });
    // The refused handshake's connection is closed by the station, not left open.
    await expect.poll(serverConnections).toBe(CAP);

    await closeAll([sockets.shift()!]);
    await expect
      .poll(async () => {
        const again = await connect('10.0.0.1');
        if (again.kind === 'open') sockets.push(again.ws);
        return again.kind;
      })
      .toBe('open');
    await closeAll(sockets);
  });

  it('leaves another address unaffected while one is at its cap', async () => {
    const full = [];
    for (let i = 0; i < CAP; i++) full.push(opened(await connect('10.0.0.2')));
    expect((await connect('10.0.0.2')).kind).toBe('refused');
    const other = opened(await connect('10.0.0.3'));
    await closeAll([...full, other]);
  });

  it('lets exactly the cap in when many handshakes from one address arrive together', async () => {
    const outcomes = await Promise.all(Array.from({ length: CAP + 5 }, () => connect('10.0.0.4')));
    const open = outcomes.filter((o) => o.kind === 'open').map((o) => o.ws);
    expect(open).toHaveLength(CAP);
    for (const outcome of outcomes.filter((o) => o.kind !== 'open')) {
      // Refused at the handshake, or (having passed the check together with others) closed at once.
      expect([
        { kind: 'refused', status: 429 },
        {
          kind: 'closed',
          code: 1013,
          reason: `Too many connections from this address (at most ${CAP} at once)`,
        },
      ]).toContainEqual(outcome.kind === 'refused' ? { kind: 'refused', status: outcome.status } : outcome);
    }
    await closeAll(open);
  });
});

describe('MAX_SOCKETS_PER_ADDRESS', () => {
  it('is 500 by default', () => expect(loadConfig({}).maxSocketsPerAddress).toBe(500));

  it.each([
    ['0', 'must be at least 1'],
    ['2.5', 'must be a whole number'],
    ['many', 'must be a whole number'],
    ['1000001', 'must be at most 1000000'],
  ])('refuses %j at start-up', (value, message) => {
    expect(() => loadConfig({ MAX_SOCKETS_PER_ADDRESS: value })).toThrow(
      `Invalid environment variable MAX_SOCKETS_PER_ADDRESS: ${message}`,
    );
  });
});
