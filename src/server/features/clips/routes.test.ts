import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import errorsPlugin from '../../plugins/errors.js';
import { FrameHistory } from '../../radio/frame-history.js';
import { FrameParser } from '../../radio/mp3-frames.js';
import { makeMp3 } from '../../radio/test-audio.js';
import { createTestDatabase } from '../../test/helpers.js';
import type { ClipAudioSource } from './cut.js';
import requestHostPlugin from '../../plugins/request-host.js';
import { clipRoutes } from './routes.js';
import { createClip } from './service.js';
import { audioClips } from '../../db/schema.js';
import { readdirSync } from 'node:fs';

const work = mkdtempSync(path.join(os.tmpdir(), 'clips-test-'));

/** 90 s of a real 128 kbps MP3 (a tone from ffmpeg), cut into frames on a stream clock as the broadcaster does. */
type Broadcast = ClipAudioSource & { clock: number };

async function broadcastOf(seconds: number, keepSeconds = 600): Promise<Broadcast> {
  const file = await makeMp3(path.join(work, 'tone.mp3'), { seconds, extra: ['-ac', '2'] });
  const parser = new FrameParser();
  const frames = [...parser.push(readFileSync(file)), ...parser.end()];
  const history = new FrameHistory(keepSeconds);
  let clock = 0;
  for (const f of frames) {
    history.push({ data: f.data, start: clock, duration: f.duration });
    clock += f.duration;
  }
  return {
    clock,
    framesBetween: (from, to) => history.between(from, to),
    nowPlaying: () => ({
      stream_clock: clock,
      current_track: { title: 'Evening Psalm', artist: 'Grace Choir' },
    }),
  };
}

function probeDuration(buffer: Buffer): number {
  const file = path.join(work, `probe-${Math.random().toString(36).slice(2)}.mp3`);
  writeFileSync(file, buffer);
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_name',
    '-of',
    'json',
    file,
  ]).toString();
  const parsed = JSON.parse(out) as { format: { duration: string }; streams: { codec_name: string }[] };
  expect(parsed.streams[0]!.codec_name).toBe('mp3');
  return Number(parsed.format.duration);
}

describe('server-cut clips', () => {
  let app: FastifyInstance;
  let db: Database;
  let closeDb: () => Promise<void>;
  let source: Broadcast | null;

  beforeAll(async () => {
    source = await broadcastOf(90);
    const database = await createTestDatabase();
    db = database.db;
    closeDb = database.close;
    app = await clipsApp(50);
  });

  afterAll(async () => {
    await app.close();
    await closeDb();
    rmSync(work, { recursive: true, force: true });
  });

  /** The clip routes alone on the test database, cutting from `source`, `perMinute` clips per address. */
  async function clipsApp(perMinute: number) {
    const built = Fastify();
    built.setValidatorCompiler(validatorCompiler);
    built.setSerializerCompiler(serializerCompiler);
    built.decorate('db', db);
    built.decorate('station', () => ({
      name: 'Grace Radio',
      networkName: 'N',
      networkUrl: 'https://n.example',
      timeZone: 'UTC',
    }));
    await built.register(errorsPlugin);
    await built.register(requestHostPlugin, {});
    await built.register(clipRoutes, { dataDir: 'memory://', audio: () => source, perMinute });
    await built.ready();
    return built;
  }

  const create = (body: unknown) =>
    app.inject({ method: 'POST', url: '/api/clips', payload: body as object });

  it('cuts the last N seconds into a valid MP3 of about N seconds', async () => {
    for (const seconds of [10, 30]) {
      const res = await create({ seconds });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({ title: 'Evening Psalm - Grace Radio Live', duration: seconds });
      expect(created.shareUrl).toMatch(new RegExp(`/clips/${created.id}$`));
      const audio = await app.inject({ method: 'GET', url: created.audioUrl });
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/mpeg');
      expect(Math.abs(probeDuration(audio.rawPayload) - seconds)).toBeLessThan(0.5);
    }
  });

  it('cuts the seconds before the stream clock the listener hears', async () => {
    const res = await create({ seconds: 20, streamClock: 40, title: 'My moment', description: 'Praise' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    const meta = (await app.inject({ method: 'GET', url: `/api/clips/${id}` })).json();
    expect(meta).toMatchObject({
      title: 'My moment',
      description: 'Praise',
      duration: 20,
      mimeType: 'audio/mpeg',
      trackTitle: 'Grace Choir - Evening Psalm',
      downloadCount: 0,
      shareCount: 0,
    });
    expect(meta.fileSize).toBeGreaterThan(20 * 15_000);
  });

  it('downloads with the SPEC naming (.mp3), counts downloads and shares, and serves ranges', async () => {
    const { id } = (await create({ seconds: 10, title: 'Amazing Grace!' })).json();
    const dl = await app.inject({ method: 'GET', url: `/api/clips/${id}/audio?download=1` });
    expect(dl.headers['content-disposition']).toBe('attachment; filename="amazing_grace_.mp3"');
    await app.inject({ method: 'GET', url: `/api/clips/${id}/audio` });
    const share = await app.inject({ method: 'POST', url: `/api/clips/${id}/share` });
    expect(share.json()).toEqual({ shareCount: 1 });
    const meta = (await app.inject({ method: 'GET', url: `/api/clips/${id}` })).json();
    expect(meta).toMatchObject({ downloadCount: 1, shareCount: 1 });
    const part = await app.inject({
      method: 'GET',
      url: `/api/clips/${id}/audio`,
      headers: { range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(100);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${meta.fileSize}`);
  });

  it('serves a small clip page with a player and the station name', async () => {
    const { id } = (await create({ seconds: 10, title: '<b>Hymn</b>' })).json();
    const page = await app.inject({ method: 'GET', url: `/clips/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Grace Radio');
    expect(page.body).toContain(`<audio controls preload="metadata" src="/api/clips/${id}/audio">`);
    expect(page.body).toContain('&lt;b&gt;Hymn&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Hymn</b>');
  });

  it.each([
    ['no body', undefined],
    ['seconds missing', {}],
    ['too short', { seconds: 9 }],
    ['too long', { seconds: 121 }],
    ['not an integer', { seconds: 12.5 }],
    ['a string', { seconds: '30' }],
    ['negative stream clock', { seconds: 10, streamClock: -5 }],
    ['title too long', { seconds: 10, title: 'x'.repeat(201) }],
  ])('answers 400 for %s', async (_name, body) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it('near the start of the broadcast, cuts what there is when it is at least 10 s', async () => {
    const res = await create({ seconds: 30, streamClock: 12 });
    expect(res.statusCode).toBe(201);
    expect(res.json().duration).toBe(12);
  });

  it('answers 409 when that moment is not in the recent broadcast', async () => {
    const res = await create({ seconds: 30, streamClock: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/available/);
  });

  describe("a recording's stream-clock range", () => {
    it('is cut to exactly that moment, with the title and description given', async () => {
      const res = await create({
        range: { from: 30.3, to: 34.1 },
        title: 'Psalm 23',
        description: 'Heard at breakfast',
      });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({ title: 'Psalm 23', duration: 4 });
      expect(created.shareUrl).toMatch(new RegExp(`/clips/${created.id}$`));
      const audio = await app.inject({ method: 'GET', url: created.audioUrl });
      expect(Math.abs(probeDuration(audio.rawPayload) - 3.8)).toBeLessThan(0.1);
      const meta = (await app.inject({ method: 'GET', url: `/api/clips/${created.id}` })).json();
      expect(meta).toMatchObject({ description: 'Heard at breakfast', mimeType: 'audio/mpeg' });
    });

    it('takes the longest clip whole', async () => {
      const res = await create({ range: { from: 0, to: 89.9 } });
      expect(res.statusCode).toBe(201);
      expect(res.json().duration).toBe(90);
    });

    it('answers 409 saying how much the station keeps when the moment has left it', async () => {
      const saved = source;
      // The same 90 s broadcast, of which only the last 20 s are still kept.
      source = await broadcastOf(90, 20);
      try {
        for (const range of [
          { from: 10, to: 20 },
          { from: 60, to: 75 }, // its start has gone, its end is still there
        ]) {
          const res = await create({ range });
          expect(res.statusCode).toBe(409);
          expect(res.json()).toEqual({
            message:
              'That moment is no longer available: the station keeps only the last 5 minutes of its broadcast',
          });
        }
        expect((await create({ range: { from: 75, to: 85 } })).statusCode).toBe(201);
      } finally {
        source = saved;
      }
    });

    it('answers 409 for a moment not yet broadcast', async () => {
      const res = await create({ range: { from: source!.clock + 5, to: source!.clock + 10 } });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: 'That moment has not been broadcast yet' });
    });

    it.each([
      ['an empty range', { range: {} }, 'range.from'],
      ['no end', { range: { from: 10 } }, 'range.to'],
      ['an end before the start', { range: { from: 20, to: 10 } }, 'at least 1 s after from'],
      ['an end at the start', { range: { from: 20, to: 20 } }, 'at least 1 s after from'],
      ['under a second', { range: { from: 20, to: 20.5 } }, 'at least 1 s after from'],
      ['over the longest clip', { range: { from: 0, to: 120.5 } }, 'at most 120 s'],
      ['a negative start', { range: { from: -3, to: 10 } }, 'range.from'],
      ['text for numbers', { range: { from: '1', to: '9' } }, 'range.from'],
      ['a list for a range', { range: [1, 9] }, 'range'],
      ['both seconds and a range', { seconds: 10, range: { from: 1, to: 9 } }, 'not both'],
      ['a range with a stream clock', { range: { from: 1, to: 9 }, streamClock: 9 }, 'its own end'],
    ])('answers 400 for %s', async (_name, body, says) => {
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(says);
    });

    it('answers 400, not 500, for numbers JSON can write but not hold', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/clips',
        headers: { 'content-type': 'application/json' },
        payload: '{"range":{"from":1,"to":1e999}}',
      });
      expect(res.statusCode).toBe(400);
    });

    it('any range gets a clip or a clear 4xx, never a 5xx (fast-check)', async () => {
      const roomy = await clipsApp(10_000);
      const number = fc.oneof(
        fc.double({ min: -200, max: 300, noNaN: true }),
        fc.integer({ min: -10, max: 200 }),
        fc.constantFrom<unknown>(null, '5', true, [], {}),
      );
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.record({ from: number, to: number }, { requiredKeys: [] }),
            fc.option(fc.integer({ min: 0, max: 130 }), { nil: undefined }),
            async (range, seconds) => {
              const res = await roomy.inject({
                method: 'POST',
                url: '/api/clips',
                payload: { range, ...(seconds === undefined ? {} : { seconds }) },
              });
              const { from, to } = range as { from?: unknown; to?: unknown };
              const valid =
                seconds === undefined &&
                typeof from === 'number' &&
                typeof to === 'number' &&
                from >= 0 &&
                to - from >= 1 &&
                to - from <= 120;
              if (!valid) expect(res.statusCode).toBe(400);
              else expect([201, 409]).toContain(res.statusCode);
              expect(res.json().message ?? res.json().id).toEqual(expect.any(String));
            },
          ),
          { numRuns: 60 },
        );
      } finally {
        await roomy.close();
      }
    });
  });

  it('answers 404 for unknown ids', async () => {
    for (const req of [
      { method: 'GET' as const, url: '/api/clips/nope' },
      { method: 'GET' as const, url: '/api/clips/nope/audio' },
      { method: 'POST' as const, url: '/api/clips/nope/share' },
      { method: 'GET' as const, url: '/clips/nope' },
    ]) {
      expect((await app.inject(req)).statusCode).toBe(404);
    }
  });

  it('answers 503 when the station plays an external stream', async () => {
    const saved = source;
    source = null;
    try {
      expect((await create({ seconds: 10 })).statusCode).toBe(503);
    } finally {
      source = saved;
    }
  });

  it('rate-limits clip creation per address', async () => {
    const limited = await clipsApp(2);
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (await limited.inject({ method: 'POST', url: '/api/clips', payload: { seconds: 10 } })).statusCode,
      );
    expect(codes).toEqual([201, 201, 429]);
    await limited.close();
  });

  it('refuses text that cannot be stored and ids that are not ids with a 400, never a 500', async () => {
    for (const body of [
      { seconds: 10, title: 'a\u0000b' },
      { seconds: 10, description: 'nul \u0000 here' },
    ]) {
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('cannot be stored');
    }
    for (const req of [
      { method: 'GET' as const, url: '/api/clips/%00' },
      { method: 'GET' as const, url: '/api/clips/%00/audio' },
      { method: 'POST' as const, url: '/api/clips/%00/share' },
      { method: 'GET' as const, url: '/clips/%00' },
      { method: 'GET' as const, url: '/api/clips/a.b' },
    ]) {
      const res = await app.inject(req);
      expect(res.statusCode, req.url).toBe(400);
    }
  });

  it.each(['bytes=5-1', 'bytes=-0', 'bytes=999999999-'])(
    'answers the unsatisfiable range %s with 416',
    async (range) => {
      const { id } = (await create({ seconds: 10 })).json();
      const res = await app.inject({ method: 'GET', url: `/api/clips/${id}/audio`, headers: { range } });
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
      expect(res.json()).toEqual({ message: 'Range not satisfiable' });
    },
  );

  it('keeps no file without its row, and no row without its file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clips-atomic-'));
    const rows = async () => (await db.select().from(audioClips)).length;
    const before = await rows();
    const input = { seconds: 10, title: 'bad \u0000 title', sessionId: 'test', stationName: 'G' };
    await expect(createClip(db, dir, source!, input)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
    await expect(
      createClip(db, path.join(dir, 'missing'), source!, { ...input, title: 'Fine' }),
    ).rejects.toThrow();
    expect(await rows()).toBe(before);
    rmSync(dir, { recursive: true, force: true });
  });
});
