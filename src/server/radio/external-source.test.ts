import { execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NowPlaying } from '../../common/radio.js';
import {
  startFfmpegSource,
  startIcecast,
  stopProcess,
  waitFor,
  type IcecastServer,
} from '../test/icecast-server.js';
import { ExternalStationSource, parseStreamSource } from './external-source.js';

const STATION = 'Grace Live Radio';

function recordingLog() {
  const warnings: string[] = [];
  const infos: string[] = [];
  return { warnings, infos, warn: (m: string) => warnings.push(m), info: (m: string) => infos.push(m) };
}

/** A local status endpoint standing in for a hosted station's; counts what reaches it. */
async function statusServer(answer: (req: IncomingMessage, res: ServerResponse) => void, port = 0) {
  const requests: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    requests.push(performance.now());
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    answer(req, res);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/status`,
    port: address.port,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Resolves with the next now playing that satisfies `match`. */
function nextChange(source: ExternalStationSource, match: (n: NowPlaying) => boolean): Promise<NowPlaying> {
  return new Promise((resolve) => {
    if (match(source.nowPlaying())) return resolve(source.nowPlaying());
    const off = source.onChange((n) => {
      if (match(n)) {
        off();
        resolve(n);
      }
    });
  });
}

const sources: ExternalStationSource[] = [];
function externalSource(
  options: Partial<ConstructorParameters<typeof ExternalStationSource>[0]> & { streamSource: string },
) {
  const log = recordingLog();
  const source = new ExternalStationSource({
    stationName: STATION,
    log,
    pollIntervalMs: 100,
    timeoutMs: 2_000,
    ...options,
  });
  sources.push(source);
  return { source, log };
}
afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
});

describe('STREAM_SOURCE', () => {
  it('is icecast:URL or url:URL', () => {
    expect(parseStreamSource('icecast:http://radio.example.org:8000/live')).toEqual({
      kind: 'icecast',
      streamUrl: 'http://radio.example.org:8000/live',
    });
    expect(parseStreamSource('url:https://s1.radio.co/abc/listen')).toMatchObject({ kind: 'url' });
    expect(() => parseStreamSource('ftp://x')).toThrow(/icecast:URL or url:URL/);
  });
});

const hasIcecast = (() => {
  try {
    execFileSync('icecast2', ['-v'], { stdio: 'ignore' });
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasIcecast)('an external Icecast station', () => {
  let icecast: IcecastServer;
  const encoders: ChildProcess[] = [];

  beforeAll(async () => {
    icecast = await startIcecast();
    for (const mount of ['/live', '/other']) {
      encoders.push(
        startFfmpegSource(`icecast://source:${icecast.password}@127.0.0.1:${icecast.port}${mount}`),
      );
      await icecast.waitForMount(mount);
    }
    await icecast.setSong('/other', 'Someone Else - Not Ours');
  }, 90_000);
  afterAll(async () => {
    await Promise.all(encoders.map((e) => stopProcess(e)));
    await icecast?.stop();
  });

  it('reads title, artist and listeners of its mount from status-json.xsl', async () => {
    const { source } = externalSource({ streamSource: `icecast:${icecast.origin}/live` });
    expect(source.streamUrl()).toBe(`${icecast.origin}/live`);
    await icecast.setSong('/live', 'Grace Choir - Amazing Grace');
    await source.start();
    const playing = await nextChange(source, (n) => n.current_track.title === 'Amazing Grace');
    expect(playing).toMatchObject({
      current_track: { artist: 'Grace Choir', artwork_url: null },
      is_live: true,
      listeners: 0,
    });

    // A real listener on the mount is counted.
    const listener = get(`${icecast.origin}/live`);
    listener.on('error', () => {});
    await nextChange(source, (n) => n.listeners === 1);
    listener.destroy();

    await icecast.setSong('/live', 'Pastor John - Morning Devotion');
    const next = await nextChange(source, (n) => n.current_track.title === 'Morning Devotion');
    expect(next.current_track.artist).toBe('Pastor John');
    expect(next.current_track.started_at).toBeGreaterThanOrEqual(playing.current_track.started_at);
  });
});

describe('an external station with a Radio.co-style status', () => {
  it('shows the current track, its artwork and when it started', async () => {
    let track = {
      title: 'Pastor John - Sunday Sermon',
      artwork_url: 'https://cdn.example.org/s.jpg',
      start_time: new Date(Date.now() - 60_000).toISOString(),
    };
    const upstream = await statusServer((req, res) =>
      json({ status: 'online', current_track: track })(req, res),
    );
    try {
      const { source } = externalSource({
        streamSource: 'url:https://streams.radio.co/abc/listen',
        statusUrl: upstream.url,
      });
      await source.start();
      expect(source.nowPlaying()).toMatchObject({
        current_track: {
          title: 'Sunday Sermon',
          artist: 'Pastor John',
          artwork_url: 'https://cdn.example.org/s.jpg',
          started_at: 0,
        },
        is_live: true,
      });
      expect(source.streamUrl()).toBe('https://streams.radio.co/abc/listen');
      track = { title: 'Evening Hymns', artwork_url: '', start_time: new Date().toISOString() };
      const next = await nextChange(source, (n) => n.current_track.title === 'Evening Hymns');
      expect(next.current_track).toMatchObject({ artist: STATION, artwork_url: null });
      expect(next.current_track.started_at).toBeGreaterThan(0);
      expect(next.current_track.started_at).toBeLessThanOrEqual(next.stream_clock);
    } finally {
      await upstream.close();
    }
  });

  it('without a status URL shows the station name and never calls anything', async () => {
    const { source } = externalSource({ streamSource: 'url:https://streams.example.org/live.mp3' });
    await source.start();
    expect(source.nowPlaying()).toMatchObject({
      current_track: { title: `${STATION} Live`, artist: STATION, artwork_url: null },
      is_live: true,
      listeners: 0,
    });
  });
});

describe('protecting the upstream and the listeners', () => {
  it('answers any number of readers from the cache: one upstream request at a time, spaced by the interval', async () => {
    const upstream = await statusServer((req, res) => {
      setTimeout(() => json({ status: 'online', current_track: { title: 'Choir - Hymn' } })(req, res), 150);
    });
    try {
      const { source } = externalSource({
        streamSource: 'url:http://127.0.0.1:1/live',
        statusUrl: upstream.url,
      });
      await source.start();
      expect(upstream.requests).toHaveLength(1);
      const reads = await Promise.all(Array.from({ length: 5_000 }, async () => source.nowPlaying()));
      expect(new Set(reads.map((r) => r.current_track.title))).toEqual(new Set(['Hymn']));
      expect(upstream.requests.length).toBeLessThanOrEqual(1);
      await waitFor('four polls', () => (upstream.requests.length >= 4 ? true : undefined));
      expect(upstream.maxInFlight()).toBe(1);
      upstream.requests
        .slice(1)
        .forEach((at, i) => expect(at - upstream.requests[i]!).toBeGreaterThanOrEqual(100 + 150 - 5));
    } finally {
      await upstream.close();
    }
  });

  it('keeps the last good value when the upstream fails, logs once per outage, and recovers', async () => {
    let answer: 'good' | 'error' = 'good';
    const upstream = await statusServer((req, res) => {
      if (answer === 'good')
        return json({ status: 'online', current_track: { title: 'Choir - Hymn' } })(req, res);
      res.statusCode = 503;
      res.end('down');
    });
    const { source, log } = externalSource({
      streamSource: 'url:http://127.0.0.1:1/live',
      statusUrl: upstream.url,
    });
    const changes: NowPlaying[] = [];
    source.onChange((n) => changes.push(n));
    await source.start();
    const good = source.nowPlaying().current_track;
    expect(good).toMatchObject({ title: 'Hymn', artist: 'Choir' });

    answer = 'error';
    const failedFrom = upstream.requests.length;
    await waitFor('three failed polls', () =>
      upstream.requests.length >= failedFrom + 3 ? true : undefined,
    );
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(/HTTP 503; keeping the last now playing/);
    expect(source.nowPlaying().current_track).toEqual(good);

    // Then unreachable altogether for a while, then back with a new track.
    await upstream.close();
    const back = await statusServer(
      json({ status: 'online', current_track: { title: 'Choir - Psalm' } }),
      upstream.port,
    );
    try {
      await nextChange(source, (n) => n.current_track.title === 'Psalm');
      expect(log.infos).toEqual([expect.stringMatching(/status is back/)]);
      expect(changes.map((c) => c.current_track.title)).toEqual(['Hymn', 'Psalm']);
    } finally {
      await back.close();
    }
  });

  it('treats malformed status JSON as a failure, never as now playing', async () => {
    const bodies = [
      '{"icestats": {"source": ',
      'not json at all',
      '{"unexpected": true}',
      '{"status": "online", "current_track": {"title": "Choir - Hymn"}}',
      '{"icestats"',
    ];
    let served = 0;
    const upstream = await statusServer((req, res) =>
      json(bodies[Math.min(served++, bodies.length - 1)])(req, res),
    );
    try {
      const { source, log } = externalSource({
        streamSource: 'url:http://127.0.0.1:1/live',
        statusUrl: upstream.url,
      });
      await expect(source.start()).resolves.toBeUndefined();
      expect(source.nowPlaying().current_track.title).toBe(`${STATION} Live`);
      expect(log.warnings[0]).toMatch(/not JSON/);
      await nextChange(source, (n) => n.current_track.title === 'Hymn');
      await waitFor('a malformed answer after the good one', () =>
        served >= bodies.length + 1 ? true : undefined,
      );
      expect(source.nowPlaying().current_track).toMatchObject({ title: 'Hymn', artist: 'Choir' });
      expect(log.warnings).toHaveLength(2); // one per outage: before and after the good answer
    } finally {
      await upstream.close();
    }
  });

  it('starts without throwing when the upstream is unreachable', async () => {
    const closed = await statusServer(() => {});
    await closed.close();
    const { source, log } = externalSource({
      streamSource: 'url:http://127.0.0.1:1/live',
      statusUrl: closed.url,
    });
    await expect(source.start()).resolves.toBeUndefined();
    expect(log.warnings).toEqual([expect.stringMatching(/unavailable/)]);
    expect(source.nowPlaying().current_track.title).toBe(`${STATION} Live`);
  });

  it('gives up on an upstream that does not answer in time', async () => {
    const upstream = await statusServer(() => {});
    try {
      const { source, log } = externalSource({
        streamSource: 'url:http://127.0.0.1:1/live',
        statusUrl: upstream.url,
        timeoutMs: 200,
      });
      await source.start();
      expect(log.warnings).toEqual([expect.stringMatching(/no answer in time/)]);
      expect(source.nowPlaying().current_track.title).toBe(`${STATION} Live`);
    } finally {
      await upstream.close();
    }
  });
});
