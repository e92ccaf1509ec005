import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { connectWS } from '../test/ws-client.js';

/** What the station logged, one parsed pino line each. */
const lines: { msg: string; client?: number; sinceLastLogged?: number }[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
    done();
  },
});
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'warn', stream } });
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const malformedLines = () => lines.filter((line) => line.msg === 'malformed WebSocket message');

describe('malformed WebSocket messages', () => {
  it.each([
    ['binary frames', Buffer.from([0xff, 0x00, 0x7b])],
    ['text that is not JSON', '{"type":'],
    ['JSON of the wrong shape', '{"type":"chat","message":42}'],
    ['an unknown message type', '{"type":"shout"}'],
  ] as [string, string | Buffer][])(
    'from one client (%s) are each answered, and logged once a minute',
    async (_case, frame) => {
      const before = malformedLines().length;
      const client = await connectWS(t.app, ['error', 'pong']);
      for (let i = 0; i < 1_000; i++) client.ws.send(frame);
      client.ws.send(JSON.stringify({ type: 'ping' }));
      // Messages are handled in order: the pong comes after the 1,000 answers.
      expect(await client.next(1_001)).toEqual({ type: 'pong' });
      expect(client.messages.filter((m) => m.type === 'error')).toHaveLength(1_000);
      const logged = malformedLines().slice(before);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ sinceLastLogged: 0 });
      client.ws.terminate();
    },
  );

  it('tells in the next minute line how many went unlogged', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const before = malformedLines().length;
    const client = await connectWS(t.app, ['error', 'pong']);
    const burst = async (count: number) => {
      for (let i = 0; i < count; i++) client.ws.send('nonsense');
      client.ws.send(JSON.stringify({ type: 'ping' }));
      const pongs = () => client.messages.filter((m) => m.type === 'pong').length;
      const seen = pongs();
      for (let n = client.messages.length + 1; pongs() === seen; n++) await client.next(n);
    };
    await burst(5);
    vi.setSystemTime(Date.now() + 61_000);
    await burst(1);
    expect(
      malformedLines()
        .slice(before)
        .map((line) => line.sinceLastLogged),
    ).toEqual([0, 4]);
    client.ws.terminate();
  });
});
