import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER_MESSAGE } from '../../../common/text.js';
import { featuredContent } from '../../db/schema.js';
import { makeMp3 } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';
import { podcastFeed, type Episode } from './feed.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let audioUrl: string;
const work = mkdtempSync(path.join(os.tmpdir(), 'podcast-hostile-'));

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'preacher', 'admin')).headers;
  const file = await makeMp3(path.join(work, 'sermon.mp3'), { seconds: 2, bitrate: '64k' });
  const body = multipartBody('audio', 'sermon.mp3', 'audio/mpeg', readFileSync(file));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/upload-audio',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
  audioUrl = (res.json() as { audioUrl: string }).audioUrl;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

/** Stores an item as it stands, as text saved before the checks at save existed. */
const insertRows = (values: (typeof featuredContent.$inferInsert)[]) =>
  t.db.insert(featuredContent).values(values).returning();

/** Parses the feed as a podcast app does; a real XML parser throws on any character XML 1.0 does not allow. */
const parseFeed = (xml: string) => new JSDOM(xml, { contentType: 'application/xml' }).window.document;

/** What XML 1.0 can carry of a text: tab, LF, CR and everything from U+0020 but surrogates, U+FFFE and U+FFFF. */
const xmlText = (text: string) =>
  text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');

const itemTitle = (doc: Document, id: string) =>
  [...doc.querySelectorAll('item')].find((item) => item.querySelector('guid')?.textContent === id);

const HOSTILE = [
  ['a C0 control', 'Grace\u0001Truth'],
  ['a vertical tab and form feed', 'Grace\u000b\u000cTruth'],
  ['an escape sequence', 'Grace \u001b[31mTruth'],
  ['U+FFFE and U+FFFF', 'Grace\uFFFE\uFFFFTruth'],
  ['a delete and a C1 control', 'Grace\u007f\u0085Truth'],
] as const;

describe('featured titles and descriptions at save', () => {
  it.each(HOSTILE.filter(([, text]) => /\p{Cc}/u.test(text)))(
    'refuses a title or description with %s with a clear 400',
    async (_, text) => {
      for (const field of ['title', 'description', 'speaker'] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/featured-content',
          headers: staff,
          payload: { title: 'Sermon', description: 'John 1', type: 'sermon', [field]: text },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toContain(CONTROL_CHARACTER_MESSAGE);
      }
    },
  );

  it('keeps tabs and line breaks in a description', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/featured-content',
      headers: staff,
      payload: {
        title: 'Sermon\tone',
        description: 'John 1\r\nverse 1\n\tverse 2',
        type: 'sermon',
        audioUrl,
      },
    });
    expect(res.statusCode).toBe(201);
    const doc = parseFeed((await t.app.inject({ url: '/podcast.xml' })).body);
    const item = itemTitle(doc, (res.json() as { id: string }).id)!;
    expect(item.querySelector('title')?.textContent).toBe('Sermon\tone');
    expect(item.querySelector('description')?.textContent).toBe('John 1\r\nverse 1\n\tverse 2');
  });
});

describe('GET /podcast.xml with text stored before it was refused', () => {
  it.each(HOSTILE)('stays valid XML with a title holding %s', async (_, text) => {
    const [row] = await insertRows([
      { title: text, description: `${text} <b>&amp;</b> ]]>`, speaker: text, type: 'sermon', audioUrl },
    ]);
    const res = await t.app.inject({ url: '/podcast.xml' });
    expect(res.statusCode).toBe(200);
    const item = itemTitle(parseFeed(res.body), row!.id)!;
    expect(item.querySelector('title')?.textContent).toBe(xmlText(text));
    expect(item.querySelector('description')?.textContent).toBe(`${xmlText(text)} <b>&amp;</b> ]]>`);
  });

  it('stays valid XML for any stored title and description, in any Unicode plane', async () => {
    const storable = fc
      .string({ unit: 'binary', maxLength: 60 })
      .map((text) => text.replaceAll('\u0000', ''))
      .filter((text) => text.trim().length > 0);
    await fc.assert(
      fc.asyncProperty(storable, storable, async (title, description) => {
        const [row] = await insertRows([{ title, description, type: 'sermon', audioUrl }]);
        const res = await t.app.inject({ url: '/podcast.xml' });
        const item = itemTitle(parseFeed(res.body), row!.id)!;
        expect(item.querySelector('title')?.textContent).toBe(xmlText(title));
        expect(item.querySelector('description')?.textContent).toBe(xmlText(description));
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('the feed built for any station name and episode title', () => {
  // Every kind of character, lone surrogates and noncharacters included (the environment may hold any).
  const hostile = fc.string({
    unit: fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom(
        '\u0000',
        '\u0001',
        '\u001f',
        '\u007f',
        '\u0085',
        '\uD800',
        '\uDFFF',
        '\uFFFE',
        '\uFFFF',
      ),
      fc.constantFrom('<', '>', '&', "'", '"', ']]>', '\r', '\n', '\t'),
    ),
    maxLength: 40,
  });

  it('is XML a parser reads back to the text XML can carry', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (name, networkName, title) => {
        const episode: Episode = {
          id: 'e1',
          title,
          description: title,
          speaker: null,
          audioUrl: '/uploads/a.mp3',
          addedAt: new Date(0),
          file: { size: 1, mimeType: 'audio/mpeg', durationSeconds: 1 },
        };
        const station = { name, networkName, networkUrl: 'https://grace.example', timeZone: 'UTC' };
        const doc = parseFeed(podcastFeed(station, 'https://radio.example', [episode]));
        const channel = doc.querySelector('channel')!;
        expect(channel.querySelector(':scope > title')?.textContent).toBe(xmlText(`${name} Sermons`));
        expect(doc.querySelector('item > title')?.textContent).toBe(xmlText(title));
        expect(doc.getElementsByTagName('itunes:author')[0]?.textContent).toBe(xmlText(networkName));
      }),
      { numRuns: 300 },
    );
  });
});
