import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CAPTION_AGE_SECONDS, SUBTITLE_TEXT, type SubtitleEntry } from '../../../common/subtitles.js';
import { subtitles } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { connectWS } from '../../test/ws-client.js';
import { captionSecond } from './service.js';

const KEY = 'ingest-key-for-the-captioners';
let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Awaited<ReturnType<typeof addStaff>>;

beforeAll(async () => {
  t = await createTestApp({ SUBTITLE_INGEST_KEY: KEY });
  staff = await addStaff(t.db, 'captioner', 'admin');
});
afterAll(async () => t?.close());

const caption = (payload: unknown, headers: Record<string, string> = { 'x-ingest-key': KEY }) =>
  t.app.inject({ method: 'POST', url: '/api/subtitles', headers, payload: payload as object });
const lines = async (language: string) =>
  (await t.app.inject({ url: `/api/subtitles/${language}` })).json<SubtitleEntry[]>();
const rowCount = async () => (await t.db.select().from(subtitles)).length;

describe('POST /api/subtitles', () => {
  it('stores a caption and its translations at the stream-clock second of arrival', async () => {
    const res = await caption({
      text: 'Good evening and welcome',
      language: 'en',
      translations: { es: 'Buenas noches y bienvenidos', fr: 'Bonsoir et bienvenue' },
      speaker: 'Pastor John',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ timestamp: number; createdAt: string; lines: { language: string }[] }>();
    expect(body.timestamp).toBe(Math.round(t.app.nowPlaying.nowPlaying().stream_clock));
    // When it was stored, for the Captions tab's time of day.
    expect(Math.abs(Date.parse(body.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(body.lines.map((l) => l.language).sort()).toEqual(['en', 'es', 'fr']);
    expect(await lines('es')).toEqual([
      expect.objectContaining({
        timestamp: body.timestamp,
        translatedText: 'Buenas noches y bienvenidos',
        speaker: 'Pastor John',
        confidence: 95,
      }),
    ]);
    const languages = await t.app.inject({ url: '/api/subtitles/languages' });
    expect(languages.json()).toEqual(expect.arrayContaining(['en', 'es', 'fr']));
  });

  it('takes a staff sign-in as well as the key, and a correction replaces every language of the line', async () => {
    const first = await caption(
      { text: 'Let us pary', language: 'en', translations: { de: 'Lasst uns beten' } },
      staff.headers,
    );
    expect(first.statusCode).toBe(201);
    const ids = first.json<{ lines: { id: string }[] }>().lines.map((l) => l.id);
    const fixed = await caption(
      { text: 'Let us pray', language: 'en', translations: { de: 'Lasset uns beten' }, replaces: ids },
      staff.headers,
    );
    expect(fixed.statusCode).toBe(201);
    const de = await lines('de');
    expect(de.map((l) => l.translatedText)).toEqual(['Lasset uns beten']);
    expect((await lines('en')).some((l) => l.translatedText === 'Let us pary')).toBe(false);
  });

  const good = { text: 'Amen', language: 'en' };
  const badCases: [string, unknown, Record<string, string>, number, RegExp][] = [
    ['no key and no sign-in', good, {}, 401, /X-Ingest-Key/],
    ['a wrong key', good, { 'x-ingest-key': 'not-the-key-at-all' }, 401, /ingest key is not valid/],
    ['an unknown bearer token', good, { authorization: 'Bearer nope' }, 401, /session has ended/],
    ['empty text', { ...good, text: '   ' }, { 'x-ingest-key': KEY }, 400, /Text must not be empty/],
    [
      'a malformed language',
      { ...good, language: 'English!' },
      { 'x-ingest-key': KEY },
      400,
      /language code/,
    ],
    [
      'a malformed translation code',
      { ...good, translations: { 'e s': 'x' } },
      { 'x-ingest-key': KEY },
      400,
      /language code/,
    ],
    [
      'text over 1,000 characters',
      { ...good, text: 'a'.repeat(1001) },
      { 'x-ingest-key': KEY },
      400,
      /at most 1000/,
    ],
    [
      'a timestamp in the future',
      { ...good, timestamp: 10_000_000 },
      { 'x-ingest-key': KEY },
      400,
      /ahead of the stream clock/,
    ],
    ['a confidence over 100', { ...good, confidence: 120 }, { 'x-ingest-key': KEY }, 400, /whole percent/],
    ['a NUL in the text', { ...good, text: 'a\u0000b' }, { 'x-ingest-key': KEY }, 400, /cannot be stored/],
  ];
  it.each(badCases)(
    'refuses %s with a clear message and stores nothing',
    async (_name, payload, headers, status, message) => {
      const before = await rowCount();
      const res = await caption(payload, headers);
      expect(res.statusCode).toBe(status);
      expect(res.json<{ message: string }>().message).toMatch(message);
      expect(await rowCount()).toBe(before);
    },
  );

  it('places a caption on the stream clock: its own second unless ahead of the clock or far behind it', () => {
    expect(captionSecond(undefined, 12.4)).toEqual({ ok: true, timestamp: 12 });
    expect(captionSecond(5, MAX_CAPTION_AGE_SECONDS)).toEqual({ ok: true, timestamp: 5 });
    expect(captionSecond(13, 12.4)).toEqual({ ok: true, timestamp: 13 });
    expect(captionSecond(14, 12.4)).toEqual({ ok: false, reason: SUBTITLE_TEXT.future });
    expect(captionSecond(0, MAX_CAPTION_AGE_SECONDS + 10)).toEqual({
      ok: false,
      reason: SUBTITLE_TEXT.tooOld,
    });
  });

  it('never answers 5xx and stores nothing for any malformed body', async () => {
    const before = await rowCount();
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            text: fc.oneof(
              fc.string({ maxLength: 5 }).map((s) => (s.trim() ? '' : s)),
              fc.integer(),
              fc.constant(null),
            ),
            language: fc.oneof(fc.string({ maxLength: 12 }), fc.integer()),
            translations: fc.oneof(fc.string(), fc.array(fc.string())),
            confidence: fc.oneof(fc.double(), fc.string()),
          },
          { requiredKeys: ['text'] },
        ),
        async (body) => {
          const res = await caption(body);
          expect(res.statusCode).toBe(400);
          expect(typeof res.json<{ message: string }>().message).toBe('string');
        },
      ),
      { numRuns: 40 },
    );
    expect(await rowCount()).toBe(before);
  });
});

describe('GET /api/subtitles/:language', () => {
  it('refuses what is not a language code and answers an unknown one with no lines', async () => {
    expect((await t.app.inject({ url: '/api/subtitles/..%2Fetc' })).statusCode).toBe(400);
    expect(await lines('ko')).toEqual([]);
  });

  it('is cacheable: an ETag, and 304 when nothing changed', async () => {
    const first = await t.app.inject({ url: '/api/subtitles/es' });
    expect(first.headers['cache-control']).toMatch(/public/);
    const again = await t.app.inject({
      url: '/api/subtitles/es',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('/ws subtitle push', () => {
  it('pushes a new line only to the listeners who chose its language', async () => {
    const spanish = await connectWS(t.app, ['subtitle', 'error']);
    const french = await connectWS(t.app, ['subtitle', 'error']);
    spanish.ws.send(JSON.stringify({ type: 'subtitles_language', language: 'es' }));
    french.ws.send(JSON.stringify({ type: 'subtitles_language', language: 'fr' }));
    french.ws.send(JSON.stringify({ type: 'subtitles_language', language: 'not a code' }));
    expect(await french.next(1)).toEqual({ type: 'error', message: 'Unknown or malformed message' });
    await caption({ text: 'Peace be with you', language: 'en', translations: { es: 'La paz sea contigo' } });
    const pushed = await spanish.next(1);
    expect(pushed).toMatchObject({
      type: 'subtitle',
      data: { language: 'es', entry: { translatedText: 'La paz sea contigo' } },
    });
    await caption({
      text: 'And also with you',
      language: 'en',
      translations: { fr: 'Et avec votre esprit' },
    });
    expect(await french.next(2)).toMatchObject({
      data: { language: 'fr', entry: { translatedText: 'Et avec votre esprit' } },
    });
    expect(spanish.messages).toHaveLength(1);
    spanish.ws.terminate();
    french.ws.terminate();
  });
});

describe('AutoDJ cues', () => {
  it("stores the test transmission's cues of each language at their stream-clock second as the file plays", async () => {
    const frenchLine = new Promise<void>((resolve) => {
      const off = t.app.radio.onCue((cue) => {
        if (cue.language === 'fr') {
          off();
          resolve();
        }
      });
    });
    await t.app.radio.start();
    try {
      await frenchLine;
      let fr: SubtitleEntry[] = [];
      while (!fr.some((l) => l.translatedText.startsWith('Vous écoutez'))) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        fr = await lines('fr');
      }
      const line = fr.find((l) => l.translatedText.startsWith('Vous écoutez'))!;
      // The file started where the clock then stood; its first cue is 3 s in.
      expect(line.timestamp).toBeGreaterThanOrEqual(3);
      const es = await lines('es');
      expect(es.some((l) => l.timestamp === line.timestamp)).toBe(true);
    } finally {
      await t.app.radio.stop();
    }
  }, 20_000);
});

describe('translator', () => {
  let server: Server;
  const asked: { q: string; source: string; target: string }[] = [];
  let app: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const q = JSON.parse(body) as { q: string; source: string; target: string };
        asked.push(q);
        if (q.target === 'ja') return; // never answers: the call's own deadline ends it
        if (q.target === 'de') {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ translatedText: `[${q.target}] ${q.q}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    app = await createTestApp({
      SUBTITLE_INGEST_KEY: KEY,
      TRANSLATE_URL: `http://127.0.0.1:${port}`,
      TRANSLATE_TIMEOUT_MS: '2000',
      TRANSLATE_LANGUAGES: 'en,es,de,ja,ko',
    });
  });
  afterAll(async () => {
    await app?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fills the languages not supplied without holding up the caption; a failing or silent service only loses its languages', async () => {
    const korean = await connectWS(app.app, ['subtitle']);
    korean.ws.send(JSON.stringify({ type: 'subtitles_language', language: 'ko' }));
    const started = performance.now();
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/subtitles',
      headers: { 'x-ingest-key': KEY },
      payload: { text: 'Grace and peace', language: 'en', translations: { es: 'Gracia y paz' } },
    });
    expect(res.statusCode).toBe(201);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(await korean.next(1)).toMatchObject({
      data: { language: 'ko', entry: { translatedText: '[ko] Grace and peace', confidence: 85 } },
    });
    expect(asked.map((a) => a.target).sort()).toEqual(['de', 'ja', 'ko']);
    const read = async (language: string) =>
      (await app.app.inject({ url: `/api/subtitles/${language}` })).json<SubtitleEntry[]>();
    expect((await read('es')).map((l) => l.translatedText)).toEqual(['Gracia y paz']);
    expect(await read('de')).toEqual([]);
    korean.ws.terminate();
  });
});
