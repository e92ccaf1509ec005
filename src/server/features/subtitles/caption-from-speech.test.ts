import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { createLocalBus } from '../../plugins/event-bus.js';
import { createTestDatabase } from '../../test/helpers.js';
import { captionFromSpeech, recentLines, SUBTITLE_TOPIC, type StoredLine } from './service.js';
import { libreTranslate } from './translator.js';

let database: DatabaseHandle;
let server: Server;
let url = '';
/** Set: the service holds its answers until the test lets them go. */
let held: Promise<void> | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  // A LibreTranslate-compatible service: POST /translate { q, source, target } -> { translatedText }.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const q = JSON.parse(body) as { q: string; target: string };
      void (held ?? Promise.resolve()).then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ translatedText: `[${q.target}] ${q.q}` }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await database?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('captionFromSpeech', () => {
  it('stores a recognised line marked automatic, pushes it, and translates it into the other languages', async () => {
    const bus = createLocalBus();
    const pushed: StoredLine[] = [];
    bus.subscribe(SUBTITLE_TOPIC, (line) => pushed.push(line as StoredLine));
    const translator = libreTranslate({ url, timeoutMs: 2000, languages: ['en', 'es', 'fr'] });
    const { translations } = await captionFromSpeech(
      { db: database.db, bus, translator, warn: (e) => expect.fail(String(e)) },
      { text: 'The Lord is my shepherd', language: 'en', timestamp: 42 },
    );
    await translations;
    expect(
      pushed.map((l) => [l.language, l.entry.translatedText, l.entry.timestamp, l.entry.automatic]),
    ).toEqual([
      ['en', 'The Lord is my shepherd', 42, true],
      ['es', '[es] The Lord is my shepherd', 42, true],
      ['fr', '[fr] The Lord is my shepherd', 42, true],
    ]);
    expect(await recentLines(database.db, 'es')).toMatchObject([
      { timestamp: 42, translatedText: '[es] The Lord is my shepherd', automatic: true },
    ]);
    await bus.close();
  });

  it("pushes the recognised line without waiting for its translations: a slow translator never holds up the station's own lines", async () => {
    const bus = createLocalBus();
    const pushed: StoredLine[] = [];
    bus.subscribe(SUBTITLE_TOPIC, (line) => pushed.push(line as StoredLine));
    let answer = () => {};
    held = new Promise((resolve) => (answer = resolve));
    try {
      const translator = libreTranslate({ url, timeoutMs: 10_000, languages: ['en', 'es'] });
      const deps = { db: database.db, bus, translator, warn: (e: unknown) => expect.fail(String(e)) };
      const first = await captionFromSpeech(deps, { text: 'He leads me', language: 'en', timestamp: 50 });
      const second = await captionFromSpeech(deps, {
        text: 'beside still waters',
        language: 'en',
        timestamp: 52,
      });
      // Both lines are out while the translator has not answered yet.
      expect(pushed.map((l) => [l.language, l.entry.translatedText])).toEqual([
        ['en', 'He leads me'],
        ['en', 'beside still waters'],
      ]);
      answer();
      await Promise.all([first.translations, second.translations]);
      expect(
        pushed.filter((l) => l.language === 'es').map((l) => [l.entry.timestamp, l.entry.translatedText]),
      ).toEqual([
        [50, '[es] He leads me'],
        [52, '[es] beside still waters'],
      ]);
    } finally {
      answer();
      held = null;
      await bus.close();
    }
  });

  it('drops what cannot be stored rather than failing', async () => {
    const bus = createLocalBus();
    await captionFromSpeech(
      { db: database.db, bus, warn: (e) => expect.fail(String(e)) },
      { text: '   ', language: 'en', timestamp: 43 },
    );
    expect((await recentLines(database.db, 'en')).some((l) => l.timestamp === 43)).toBe(false);
    await bus.close();
  });
});
