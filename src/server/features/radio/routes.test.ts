import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowPlayingSchema } from '../../../common/radio.js';
import { radioStorage } from './service.js';
import { RadioEngine } from '../../radio/engine.js';
import { createTestApp } from '../../test/helpers.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const source = (password: string) => `Basic ${Buffer.from(`source:${password}`).toString('base64')}`;

beforeAll(async () => {
  t = await createTestApp({ SOURCE_PASSWORD: 'correct-horse' });
});
afterAll(() => t.close());

describe('GET /api/radio/current', () => {
  it('answers now playing with a weak ETag and 304 when nothing shown has changed', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/radio/current' });
    expect(first.statusCode).toBe(200);
    const body = nowPlayingSchema.parse(first.json());
    expect(body.current_track.title).toBeTruthy();
    expect(body.is_live).toBe(false);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/radio/current',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/radio/current',
      headers: { 'if-none-match': 'W/"other"' },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('stream address and probe', () => {
  it('gives the request origin + /stream when PUBLIC_URL is unset', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/radio/stream-url',
      headers: { host: 'radio.example:5000' },
    });
    expect(res.json()).toEqual({
      streamUrl: 'http://radio.example:5000/stream',
      streams: [128, 96, 80, 64].map((kbps) => ({ kbps, url: `http://radio.example:5000/stream/${kbps}` })),
    });
  });

  it('gives PUBLIC_URL + /stream when set', () => {
    const engine = new RadioEngine({
      config: { ...t.config, publicUrl: 'https://radio.example.org/' },
      storage: radioStorage(t.db, t.config),
    });
    expect(engine.streamUrl('http://ignored:5000')).toBe('https://radio.example.org/stream');
  });

  it('answers HEAD /api/radio/stream-url at once, uncached', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/radio/stream-url' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-cache');
    expect(res.body).toBe('');
  });
});

describe('/stream', () => {
  it('HEAD gives the Icecast-style headers, CORS and no caching; the adaptive quality and timestamp are accepted', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/stream?quality=96&t=1732200000000',
      headers: { 'icy-metadata': '1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['icy-metaint']).toBe('16000');
    expect(res.headers['icy-name']).toBe('Grace Live Radio');
    // The player asked for 96 kbps: it gets that mount.
    expect(res.headers['icy-br']).toBe('96');
    expect(res.headers['icy-description']).toBeTruthy();
    expect(res.headers['icy-genre']).toBeTruthy();
    expect(res.headers['cache-control']).toContain('no-cache');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('icy-metaint');
  });

  it.each([
    ['/stream', 128],
    ['/stream/128', 128],
    ['/stream/96', 96],
    ['/stream/80', 80],
    ['/stream/64', 64],
    // The player's quality parameter gets the nearest bitrate at or under it, the lowest when none is.
    ['/stream?quality=320', 128],
    ['/stream?quality=128', 128],
    ['/stream?quality=127', 96],
    ['/stream?quality=96', 96],
    ['/stream?quality=90', 80],
    ['/stream?quality=80', 80],
    ['/stream?quality=79', 64],
    ['/stream?quality=64', 64],
    ['/stream?quality=8', 64],
    // A mount's own address wins over the parameter.
    ['/stream/64?quality=128', 64],
  ])('%s plays %i kbps', async (url, kbps) => {
    const res = await t.app.inject({ method: 'HEAD', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['icy-br']).toBe(String(kbps));
  });

  it('answers the CORS preflight a browser sends for Icy-MetaData', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/stream',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-headers': 'icy-metadata' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-headers']).toMatch(/Icy-MetaData/i);
  });

  it.each([
    ['quality=abc', 400],
    ['quality=0', 400],
    ['quality=100000', 400],
    [`t=${'9'.repeat(100)}`, 400],
  ])('refuses a bad query %s with %i and a message', async (query, status) => {
    const res = await t.app.inject({ method: 'HEAD', url: `/stream?${query}` });
    expect(res.statusCode).toBe(status);
    const get = await t.app.inject({ method: 'GET', url: `/stream?${query}` });
    expect(get.statusCode).toBe(status);
    expect(get.json().message).toBeTruthy();
  });

  it.each(['/stream/999', '/stream/0', '/stream/65', '/stream/abc', '/stream/-64', '/stream/64.5'])(
    'refuses a bitrate the station does not stream, %s, with 400 and the bitrates it does',
    async (url) => {
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(400);
      const get = await t.app.inject({ method: 'GET', url });
      expect(get.statusCode).toBe(400);
      expect(get.json().message).toMatch(/128, 96, 80, 64 kbps/);
    },
  );
});

describe('live input over HTTP', () => {
  it.each([
    ['no credentials', undefined],
    ['a wrong password', source('wrong-password')],
    ['another user', `Basic ${Buffer.from('admin:correct-horse').toString('base64')}`],
    ['a malformed header', 'Basic !!!'],
  ])('refuses %s with 401 and WWW-Authenticate', async (_label, authorization) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/stream',
      headers: { 'content-type': 'audio/mpeg', ...(authorization ? { authorization } : {}) },
      payload: Buffer.alloc(100),
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(t.app.radio.live.busy).toBe(false);
  });

  it('takes the legacy SOURCE method on the same terms', async () => {
    const res = await t.app.inject({
      method: 'SOURCE' as 'PUT',
      url: '/stream',
      headers: { 'content-type': 'audio/mpeg', authorization: source('wrong-password') },
      payload: Buffer.alloc(10),
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('refuses a mount other than /stream, and a non-MP3 body', async () => {
    const wrongType = await t.app.inject({
      method: 'PUT',
      url: '/stream',
      headers: { 'content-type': 'audio/ogg', authorization: source('correct-horse') },
      payload: Buffer.alloc(10),
    });
    expect(wrongType.statusCode).toBe(403);
    const other = await t.app.inject({
      method: 'PUT',
      url: '/other',
      headers: { authorization: source('correct-horse') },
      payload: 'x',
    });
    expect(other.statusCode).toBe(404);
  });

  it('answers encoder metadata calls like Icecast', async () => {
    const noAuth = await t.app.inject({
      method: 'GET',
      url: '/admin/metadata?mount=/stream&mode=updinfo&song=A%20-%20B',
    });
    expect(noAuth.statusCode).toBe(401);
    expect(noAuth.body).toContain('<iceresponse>');
    const noSource = await t.app.inject({
      method: 'GET',
      url: '/admin/metadata?mount=/stream&mode=updinfo&song=A%20-%20B',
      headers: { authorization: source('correct-horse') },
    });
    expect(noSource.statusCode).toBe(400);
    expect(noSource.body).toContain('<return>0</return>');
    for (const query of [
      'mount=/stream&mode=killsource&song=x',
      'mount=/stream&mode=updinfo',
      `mount=/stream&mode=updinfo&song=${'x'.repeat(2000)}`,
    ]) {
      const bad = await t.app.inject({
        method: 'GET',
        url: `/admin/metadata?${query}`,
        headers: { authorization: source('correct-horse') },
      });
      expect(bad.statusCode).toBe(400);
    }
  });
});

describe('GET /api/radio/stats', () => {
  it('gives listeners now and peak today', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/radio/stats' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ listeners: 0, peakToday: 0 });
  });
});

describe('with an external station (STREAM_SOURCE)', () => {
  it('relays it on our own /stream: listeners get our address, never a redirect to it', async () => {
    const ext = await createTestApp({ STREAM_SOURCE: 'url:https://streams.example.org/live.mp3' });
    try {
      expect(ext.app.nowPlaying).toBe(ext.app.radio);
      expect(ext.app.radio.relayed?.address).toBe('https://streams.example.org/live.mp3');
      expect(ext.app.streamSource()).toBe('url:https://streams.example.org/live.mp3');
      const url = await ext.app.inject({
        method: 'GET',
        url: '/api/radio/stream-url',
        headers: { host: 'radio.example:5000' },
      });
      expect(url.json()).toEqual({
        streamUrl: 'http://radio.example:5000/stream',
        streams: [128, 96, 80, 64].map((kbps) => ({ kbps, url: `http://radio.example:5000/stream/${kbps}` })),
      });
      const stream = await ext.app.inject({ method: 'HEAD', url: '/stream' });
      expect(stream.statusCode).toBe(200);
      expect(stream.headers['content-type']).toBe('audio/mpeg');
      const current = await ext.app.inject({ method: 'GET', url: '/api/radio/current' });
      expect(nowPlayingSchema.parse(current.json()).is_live).toBeTypeOf('boolean');
    } finally {
      await ext.close();
    }
  }, 60_000);
});
