import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/fake-socket';
import { browserId, defaultWsUrl, WsClient } from './ws-client';

const nowPlaying = {
  type: 'now_playing',
  data: {
    current_track: { title: 'T', artist: 'A', artwork_url: null, started_at: 1 },
    is_live: false,
    listeners: 2,
    stream_clock: 10,
  },
};

describe('WsClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  const make = () =>
    new WsClient({
      url: 'ws://h/ws',
      createSocket: (u) => new FakeSocket(u) as unknown as WebSocket,
      heartbeatMs: 1000,
    });

  it('parses messages with the shared union and drops invalid ones', () => {
    const client = make();
    const got: unknown[] = [];
    client.onMessage((m) => got.push(m));
    client.start();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.onmessage!({ data: JSON.stringify(nowPlaying) });
    FakeSocket.all[0]!.onmessage!({ data: '{"type":"now_playing","data":{}}' });
    FakeSocket.all[0]!.onmessage!({ data: 'not json' });
    expect(got).toEqual([nowPlaying]);
  });

  it('reconnects with doubling delays and resets after a successful open', async () => {
    const client = make();
    client.start();
    FakeSocket.all[0]!.close();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.close();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    expect(client.nextDelay()).toBe(1000);
  });

  it('pings while open and replaces a socket that went silent', async () => {
    const client = make();
    client.start();
    FakeSocket.all[0]!.open();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all[0]!.sent).toEqual(['{"type":"ping"}']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeSocket.all[0]!.readyState).toBe(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('does not reconnect once stopped', async () => {
    const client = make();
    client.start();
    FakeSocket.all[0]!.open();
    client.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('keeps one random id per browser, and does without when storage is refused', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const first = browserId(storage);
    expect(first).toMatch(/^[\w-]{36}$/);
    expect(browserId(storage)).toBe(first);
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
    };
    expect(browserId(refusing)).toBeUndefined();
  });

  it('uses wss on https pages', () => {
    expect(defaultWsUrl({ protocol: 'https:', host: 'radio.example' }, null)).toBe('wss://radio.example/ws');
    expect(defaultWsUrl({ protocol: 'http:', host: 'localhost:5000' }, 'b-1')).toBe(
      'ws://localhost:5000/ws?browser=b-1',
    );
  });
});
