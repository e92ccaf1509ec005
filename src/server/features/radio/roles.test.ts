import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { NowPlaying } from '../../../common/radio.js';
import { serverMessageSchema, type ServerMessage } from '../../../common/ws.js';
import { loadConfig } from '../../config.js';
import { createStation, type Station } from '../../start.js';
import { createScratchPostgres } from '../../test/helpers.js';
import { waitFor } from '../../test/icecast-server.js';

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = 'redis://127.0.0.1:6379';

/** One station grown past one machine: one broadcaster and two web instances on the local PostgreSQL and Redis. */
describe('STATION_ROLE: one broadcaster, two web instances', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  // Channels and keys of this run only: other stations may share the Redis.
  const prefix = `roles-test-${randomBytes(6).toString('hex')}:`;
  const stations: Station[] = [];
  let broadcaster: { station: Station; url: string };
  let webs: { station: Station; url: string }[];

  async function start(env: Record<string, string>, channelPrefix = prefix) {
    const config = loadConfig({
      DATA_DIR: 'memory://',
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      ...env,
    });
    const station = await createStation(config, { redisPrefix: channelPrefix });
    stations.push(station);
    const address = await station.app.listen({ port: 0, host: '127.0.0.1' });
    return { station, url: address };
  }

  beforeAll(async () => {
    scratch = await createScratchPostgres(POSTGRES, 'station_roles');
    broadcaster = await start({ STATION_ROLE: 'broadcaster' });
    // Started once the broadcaster is on the air, as a web instance added later would be.
    webs = [];
    for (let i = 0; i < 2; i++)
      webs.push(await start({ STATION_ROLE: 'web', BROADCASTER_URL: broadcaster.url }));
  });

  afterAll(async () => {
    for (const station of stations.reverse()) await station.stop();
    await scratch?.drop();
  });

  const current = async (url: string) =>
    (await (await fetch(`${url}/api/radio/current`)).json()) as NowPlaying;

  it("lets the players fetch the audio where they are sent (the page's Content-Security-Policy)", async () => {
    const relayed = await start({
      STATION_ROLE: 'web',
      BROADCASTER_URL: broadcaster.url,
      RELAY_URLS: 'https://relay-1.example.org/stream,http://relay-2.example.org:8000/stream',
    });
    const policy = (await fetch(relayed.url)).headers.get('content-security-policy') ?? '';
    const origins = `https://relay-1.example.org http://relay-2.example.org:8000 ${broadcaster.url}`;
    expect(policy).toContain(`media-src 'self' blob: data: ${origins}`);
    expect(policy).toContain(`connect-src 'self' ${origins}`);
  });

  it('knows what is on air from its first moment, without waiting for the next track', () => {
    const onAir = broadcaster.station.app.nowPlaying.nowPlaying().current_track;
    for (const web of webs) expect(web.station.app.nowPlaying.nowPlaying().current_track).toEqual(onAir);
  });

  it('shows the same now playing and stream clock on every instance, over HTTP and /ws', async () => {
    const [own, ...others] = await Promise.all([broadcaster, ...webs].map((s) => current(s.url)));
    for (const np of others) {
      expect(np.current_track).toEqual(own!.current_track);
      expect(np.is_live).toBe(own!.is_live);
      expect(np.listeners).toBe(own!.listeners);
      // Asked within the same moment: the clocks agree to well under the time a request takes.
      expect(Math.abs(np.stream_clock - own!.stream_clock)).toBeLessThan(0.5);
    }
    expect(own!.stream_clock).toBeGreaterThan(0);

    // A browser's socket on the other web instance: told now playing at once.
    const socket = new WebSocket(`${webs[1]!.url.replace(/^http/, 'ws')}/ws`);
    const first = await new Promise<ServerMessage>((resolve, reject) => {
      socket.once('message', (data: Buffer) =>
        resolve(serverMessageSchema.parse(JSON.parse(data.toString()))),
      );
      socket.once('error', reject);
    });
    socket.terminate();
    if (first.type !== 'now_playing') throw new Error(`expected now playing, got ${first.type}`);
    expect(first.data.current_track).toEqual(own!.current_track);
    const clock = broadcaster.station.app.nowPlaying.nowPlaying().stream_clock;
    expect(Math.abs(first.data.stream_clock - clock)).toBeLessThan(0.5);
  });

  it('sends /stream players to the broadcaster, whose audio they get, and counts them on every instance', async () => {
    const web = webs[0]!;
    const address = (await (await fetch(`${web.url}/api/radio/stream-url`)).json()) as { streamUrl: string };
    expect(address.streamUrl).toBe(`${broadcaster.url}/stream`);

    const redirect = await fetch(`${web.url}/stream`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`${broadcaster.url}/stream`);

    const controller = new AbortController();
    const listener = await fetch(`${web.url}/stream`, { signal: controller.signal });
    expect(listener.url).toBe(`${broadcaster.url}/stream`);
    expect(listener.headers.get('content-type')).toBe('audio/mpeg');
    const reader = listener.body!.getReader();
    const { value } = await reader.read();
    expect(value!.length).toBeGreaterThan(0);
    try {
      // The broadcaster tells its listener count within a few seconds; both web instances show it.
      for (const other of webs) {
        await waitFor(
          'the listener counted on a web instance',
          async () => {
            const stats = (await (await fetch(`${other.url}/api/radio/stats`)).json()) as {
              listeners: number;
            };
            return stats.listeners === 1 ? true : undefined;
          },
          15_000,
        );
      }
    } finally {
      controller.abort();
    }
  });

  it('takes no live input on a web instance', async () => {
    const response = await fetch(`${webs[0]!.url}/stream`, {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from('source:whatever1').toString('base64')}`,
        'content-type': 'audio/mpeg',
      },
      body: Buffer.alloc(16),
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toMatch(/broadcaster/);
  });

  it('cuts a clip on the broadcaster when a listener asks a web instance, and serves its audio there', async () => {
    await waitFor(
      'ten seconds of broadcast',
      () => (broadcaster.station.app.nowPlaying.nowPlaying().stream_clock > 11 ? true : undefined),
      20_000,
    );
    const web = webs[1]!;
    const created = await fetch(`${web.url}/api/clips`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 10, title: 'Heard on a web instance' }),
    });
    expect(created.status).toBe(201);
    const clip = (await created.json()) as { id: string; audioUrl: string; shareUrl: string };
    expect(clip.shareUrl).toBe(`${web.url}/clips/${clip.id}`);
    // Any instance finds it in the shared database and hands out its audio.
    const details = await fetch(`${webs[0]!.url}/api/clips/${clip.id}`);
    expect(details.status).toBe(200);
    const audio = await fetch(`${webs[0]!.url}${clip.audioUrl}`, { headers: { range: 'bytes=0-99' } });
    expect(audio.status).toBe(206);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect((await audio.arrayBuffer()).byteLength).toBe(100);
  });

  it('is ready when the database, Redis and the broadcaster answer, and says what is missing when not', async () => {
    for (const s of [broadcaster, ...webs]) {
      const response = await fetch(`${s.url}/readyz`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { ready: boolean }).ready).toBe(true);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    }
    // A web instance whose broadcaster never speaks (its own channels): alive, not ready.
    const orphan = await start(
      { STATION_ROLE: 'web', BROADCASTER_URL: 'http://127.0.0.1:9' },
      `roles-test-${randomBytes(6).toString('hex')}:`,
    );
    expect((await fetch(`${orphan.url}/healthz`)).status).toBe(200);
    const response = await fetch(`${orphan.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ready: false,
      reason: 'broadcaster: no heartbeat heard yet',
      checks: { database: 'ok', disk: 'off', redis: 'ok', broadcaster: 'no heartbeat heard yet' },
    });
  });
});
