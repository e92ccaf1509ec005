import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NowPlaying } from '../../common/radio.js';
import { createTestApp } from '../test/helpers.js';
import { connectWS } from '../test/ws-client.js';
import { NOW_PLAYING_TOPIC } from './realtime.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The hub's own messages; features' messages (chat history, presence) are theirs to test. */
const connect = () => connectWS(t.app, ['now_playing', 'pong', 'error']);

describe('/ws', () => {
  it('sends the current now playing on connect', async () => {
    const client = await connect();
    const first = await client.next(1);
    expect(first.type).toBe('now_playing');
    if (first.type === 'now_playing') expect(first.data).toEqual(t.app.nowPlaying.nowPlaying());
    client.ws.terminate();
  });

  it('answers ping, and a bad message with an error message, never a crash', async () => {
    const client = await connect();
    await client.next(1);
    client.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await client.next()).toEqual({ type: 'pong' });
    for (const bad of ['not json', '{"type":"nope"}', '[]', 'null', '{"type":1}', '{}']) {
      client.ws.send(bad);
      const answer = await client.next();
      expect(answer.type).toBe('error');
    }
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await client.next()).type).toBe('error');
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        client.ws.send(text);
        const answer = await client.next();
        expect(['error', 'pong']).toContain(answer.type);
      }),
      { numRuns: 50 },
    );
    client.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await client.next()).toEqual({ type: 'pong' });
    client.ws.terminate();
  });

  it('a failing feature handler answers an error message and the socket lives on', async () => {
    const client = await connect();
    await client.next(1);
    t.app.realtime.on('ping', () => {
      throw new Error('boom');
    });
    const logged: unknown[] = [];
    const originalError = t.app.log.error;
    t.app.log.error = ((...args: unknown[]) => void logged.push(args)) as typeof t.app.log.error;
    try {
      client.ws.send(JSON.stringify({ type: 'ping' }));
      expect((await client.next()).type).toBe('error');
    } finally {
      t.app.log.error = originalError;
      t.app.realtime.on('ping', (_m, c) => c.send({ type: 'pong' }));
    }
    client.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await client.next()).toEqual({ type: 'pong' });
    client.ws.terminate();
  });

  it('pushes now playing published on the bus (from this or another instance) and app broadcasts', async () => {
    const a = await connect();
    const b = await connect();
    await a.next(1);
    await b.next(1);
    const np: NowPlaying = {
      current_track: { title: 'Amazing Grace', artist: 'Choir', artwork_url: null, started_at: 12.5 },
      is_live: true,
      listeners: 3,
      stream_clock: 20,
    };
    await t.bus.publish(NOW_PLAYING_TOPIC, np);
    expect(await a.next(2)).toEqual({ type: 'now_playing', data: np });
    expect(await b.next(2)).toEqual({ type: 'now_playing', data: np });
    // Garbage on the bus is not forwarded.
    await t.bus.publish(NOW_PLAYING_TOPIC, { nonsense: true });
    t.app.realtime.broadcast({ type: 'error', message: 'hello' });
    expect(await a.next(3)).toEqual({ type: 'error', message: 'hello' });
    expect(t.app.realtime.clientCount()).toBeGreaterThanOrEqual(2);
    a.ws.terminate();
    b.ws.terminate();
  });

  it('sends the broadcasts of one turn to every browser intact and in order, and only the newest state', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => connectWS(t.app, ['now_playing', 'chat'])));
    await Promise.all(clients.map((c) => c.next(1)));
    const np = (listeners: number): NowPlaying => ({ ...t.app.nowPlaying.nowPlaying(), listeners });
    const chat = (id: string, message: string) =>
      ({
        type: 'chat',
        data: { id, username: 'Grace', message, createdAt: new Date(0).toISOString() },
      }) as const;
    t.app.realtime.broadcastState({ type: 'now_playing', data: np(41) });
    t.app.realtime.broadcast(chat('1', 'Peace be with you: Ἀγάπη, 平安, 🙏'));
    t.app.realtime.broadcastState({ type: 'now_playing', data: np(42) });
    t.app.realtime.broadcast(chat('2', 'x'.repeat(500)));
    for (const client of clients) {
      await client.next(4);
      const chats = client.messages.filter((m) => m.type === 'chat');
      expect(chats).toEqual([chat('1', 'Peace be with you: Ἀγάπη, 平安, 🙏'), chat('2', 'x'.repeat(500))]);
      // Connect's now playing, then only the newest of the two pushed in the same turn.
      const states = client.messages.filter((m) => m.type === 'now_playing').slice(1);
      expect(states).toEqual([{ type: 'now_playing', data: np(42) }]);
      client.ws.terminate();
    }
  });
});
