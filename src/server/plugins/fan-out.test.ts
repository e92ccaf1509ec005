import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { FanOut, STATE_SLICE, prepare, takesFrames, writePrepared, type Prepared } from './fan-out.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A ws server on a free port with `count` clients that keep what they receive. */
async function room(count: number, options: { perMessageDeflate?: boolean } = {}) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  servers.push(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const sockets: WebSocket[] = [];
  server.on('connection', (socket) => sockets.push(socket));
  const received: string[][] = [];
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = new WebSocket(`ws://127.0.0.1:${port}`, {
        perMessageDeflate: !!options.perMessageDeflate,
      });
      received[i] = [];
      client.on('message', (data: Buffer, isBinary: boolean) => {
        expect(isBinary).toBe(false);
        received[i]!.push(data.toString());
      });
      await once(client, 'open');
    }),
  );
  while (sockets.length < count) await turn();
  const all = async (n: number) => {
    while (received.some((r) => r.length < n)) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { sockets, received, all };
}

// Lengths on each side of the frame header's size steps (125, 65,535 bytes), and text beyond ASCII.
const TEXTS = [
  JSON.stringify({ type: 'chat', data: { message: 'Grace and peace, Ἀγάπη, 平安, 🙏' } }),
  'x'.repeat(125),
  'y'.repeat(126),
  'é'.repeat(40_000),
  'z'.repeat(70_000),
];

describe('prepared frames', () => {
  it('reach every client intact and in order, several messages in one write', async () => {
    const { sockets, received, all } = await room(20);
    expect(sockets.every(takesFrames)).toBe(true);
    const prepared = prepare(TEXTS);
    expect(prepared.frames).toBeInstanceOf(Buffer);
    for (const socket of sockets) writePrepared(socket, prepared);
    await all(TEXTS.length);
    for (const r of received) expect(r).toEqual(TEXTS);
  });

  it('go through ws.send behind a message still being compressed, so frames never interleave', async () => {
    const { sockets, received, all } = await room(1, { perMessageDeflate: true });
    const socket = sockets[0]!;
    const big = 'compress me '.repeat(10_000);
    socket.send(big);
    expect(takesFrames(socket)).toBe(false);
    writePrepared(socket, prepare(['after']));
    await all(2);
    expect(received[0]).toEqual([big, 'after']);
  });
});

describe('FanOut', () => {
  /** Stand-in sockets: what each is written, message by message. */
  const fakeRoom = (count: number) => {
    const sockets = Array.from({ length: count }, () => ({}) as WebSocket);
    const got = new Map<WebSocket, string[]>(sockets.map((s) => [s, []]));
    const write = (socket: WebSocket, prepared: Prepared) =>
      got.get(socket)!.push(...prepared.payloads.map((p) => p.toString()));
    return { sockets, got, fanOut: new FanOut(() => sockets, write) };
  };

  it('sends the broadcasts of one turn together, in order, to every socket', async () => {
    const { got, fanOut } = fakeRoom(3);
    fanOut.now('one');
    fanOut.now('two');
    expect([...got.values()].every((g) => g.length === 0)).toBe(true);
    await turn();
    for (const g of got.values()) expect(g).toEqual(['one', 'two']);
    fanOut.now('three');
    fanOut.flush();
    for (const g of got.values()) expect(g).toEqual(['one', 'two', 'three']);
  });

  it('keeps only the latest state of each kind, and chat overtakes a state pass', async () => {
    const count = STATE_SLICE * 2 + 10;
    const { sockets, got, fanOut } = fakeRoom(count);
    fanOut.latest('presence', 'presence 1');
    fanOut.latest('presence', 'presence 2');
    fanOut.latest('now_playing', 'track A');
    await turn();
    const reached = () => sockets.filter((s) => got.get(s)!.includes('presence 2')).length;
    expect(reached()).toBe(STATE_SLICE);
    fanOut.now('chat');
    await turn();
    // The chat reached everyone while the state pass had not.
    expect(sockets.every((s) => got.get(s)!.includes('chat'))).toBe(true);
    expect(reached()).toBeLessThan(count);
    fanOut.latest('presence', 'presence 3');
    while (sockets.some((s) => !got.get(s)!.includes('presence 3'))) await turn();
    for (const s of sockets) {
      const g = got.get(s)!;
      expect(g).not.toContain('presence 1');
      expect(g.filter((m) => m === 'presence 2')).toHaveLength(1);
      expect(g.filter((m) => m === 'track A')).toHaveLength(1);
      expect(g.indexOf('presence 3')).toBeGreaterThan(g.indexOf('presence 2'));
    }
    fanOut.stop();
  });
});
