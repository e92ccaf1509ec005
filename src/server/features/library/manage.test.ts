import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_FILE_TYPE } from '../../../common/featured-content.js';
import {
  libraryAudioUrl,
  MEDIA_NOT_FOUND,
  mediaInUse,
  mediaListQuerySchema,
  mediaUpdateSchema,
  PREVIEW_LINK_EXPIRED,
  type MediaItem,
} from '../../../common/library.js';
import { createTestApp } from '../../test/helpers.js';
import { listLibrary, settledLibrary, toneFile, uploadMedia, whenMeasured } from '../../test/library.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';
import { previewUrl } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let deactivated: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'library-manage-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'library-manage-data-'));
const mediaDir = path.join(dataDir, 'media');
let tone: Buffer;
const items: MediaItem[] = [];

/** A fresh library item from an upload. */
async function addItem(name = 'tone.wav') {
  const res = await uploadMedia(t.app, staff, tone, name);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MediaItem>();
}

const patch = (id: string, payload: unknown, headers = staff) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/library/${encodeURIComponent(id)}`,
    headers,
    payload: payload as object,
  });

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'cantor', 'admin')).headers;
  const gone = await addStaff(t.db, 'former-cantor', 'admin');
  deactivated = gone.headers;
  const superuser = (await addStaff(t.db, 'rector', 'superuser')).headers;
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/toggle-status',
    headers: superuser,
    payload: { userId: gone.id, isActive: false },
  });
  tone = await toneFile(work, 'tone.wav', { seconds: 1 });
  for (const [name, fields] of [
    ['a.wav', { title: 'Amazing Grace', artist: 'Grace Choir', album: 'Hymns 100%', kind: 'music' }],
    ['b.wav', { title: 'Sunday Sermon', artist: 'Pastor John', album: 'Romans', kind: 'sermon' }],
    ['c.wav', { title: 'Station ID', artist: '', album: '', kind: 'station_id' }],
  ] as const) {
    const item = await addItem(name);
    const res = await patch(item.id, fields);
    expect(res.statusCode, res.body).toBe(200);
    items.push(res.json());
  }
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('who may call', () => {
  const endpoints = () => {
    const id = items[0]!.id;
    return [
      ['GET', '/api/library'],
      ['POST', '/api/library'],
      ['PATCH', `/api/library/${id}`],
      ['DELETE', `/api/library/${id}`],
      ['POST', `/api/library/${id}/artwork`],
      ['POST', `/api/library/${id}/preview`],
    ] as const;
  };

  it.each([
    ['no token', {}],
    ['a token nobody holds', { authorization: 'Bearer not-a-session' }],
    ['a deactivated account', () => deactivated],
  ])('refuses %s with a 401 at every staff endpoint, changing nothing', async (_c, given) => {
    const headers = typeof given === 'function' ? given() : given;
    const before = await settledLibrary(t.app, staff);
    for (const [method, url] of endpoints()) {
      const res = await t.app.inject({
        method,
        url,
        headers,
        payload: method === 'PATCH' ? { title: 'x' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().message).toMatch(/sign in/i);
    }
    expect(await listLibrary(t.app, staff)).toEqual(before);
  });
});

describe('GET /api/library', () => {
  const ids = (body: { items: MediaItem[] }) => body.items.map((item) => item.id);
  const get = (query: string) => t.app.inject({ url: `/api/library?${query}`, headers: staff });

  it.each([
    ['search=grace', [0]],
    ['search=GRACE%20choir', [0]],
    ['search=romans', [1]],
    ['search=pastor', [1]],
    ['search=100%25', [0]],
    ['search=_', []],
    ['search=%25', [0]],
    ['kind=sermon', [1]],
    ['kind=station_id', [2]],
    ['kind=jingle', []],
    ['kind=music&search=sermon', []],
  ])('finds by title, artist or album and by kind: %s', async (query, expected) => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res.json())).toEqual(expected.map((i) => items[i]!.id));
    expect(res.json().total).toBe(expected.length);
  });

  it('pages newest first, with the total', async () => {
    const first = (await get('limit=2')).json();
    const second = (await get('limit=2&offset=2')).json();
    expect(first.total).toBe(3);
    expect([...ids(first), ...ids(second)]).toEqual(items.map((item) => item.id).reverse());
  });

  it('answers any query with 200 when its contract takes it, else a 400 with a message; never a 5xx', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('-1', '0', '201', '1e3', '2.5', 'music', 'podcast', '\u0000', 'x'.repeat(300), '%00'),
      fc.integer({ min: -5, max: 300 }).map(String),
    );
    const query = fc.dictionary(fc.constantFrom('search', 'kind', 'offset', 'limit', 'other'), value, {
      maxKeys: 4,
    });
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const res = await t.app.inject({ url: '/api/library', query: params, headers: staff });
        const accepted = mediaListQuerySchema.safeParse(params).success;
        expect(res.statusCode, `${JSON.stringify(params)} -> ${res.body}`).toBe(accepted ? 200 : 400);
        if (!accepted) expect(typeof res.json().message).toBe('string');
      }),
      { numRuns: 80 },
    );
  });
});

describe('PATCH /api/library/:id', () => {
  it('changes only the fields sent and answers the item', async () => {
    const item = await addItem();
    const res = await patch(item.id, { title: '  Be Thou My Vision  ', kind: 'devotion' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ...item,
      title: 'Be Thou My Vision',
      kind: 'devotion',
      status: expect.any(String),
    });
    expect((await patch(item.id, {})).json().title).toBe('Be Thou My Vision');
  });

  it.each([
    ['an empty title', { title: ' ' }, 'Title is required'],
    ['a title on two lines', { title: 'a\nb' }, /line breaks/],
    ['an unknown kind', { kind: 'podcast' }, /Kind must be one of/],
    ['a field that is not theirs', { status: 'ready' }, /Unrecognized key/i],
    ['a number as artist', { artist: 7 }, /Artist must be text/],
    ['a title too long', { title: 'x'.repeat(201) }, /too long/],
  ])('refuses %s with a 400 saying why, changing nothing', async (_c, body, message) => {
    const before = await settledLibrary(t.app, staff);
    const res = await patch(items[0]!.id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await listLibrary(t.app, staff)).toEqual(before);
  });

  it('refuses any body its contract refuses with a 4xx, and stores exactly what it takes', async () => {
    const nasty = fc.oneof(
      fc.constantFrom(
        null,
        '',
        ' ',
        '\u0000',
        '\ud800',
        'a\u2028b',
        'x'.repeat(300),
        'music',
        'jingle',
        1,
        [],
        {},
      ),
      fc.string({ maxLength: 20 }),
    );
    const body = fc.dictionary(fc.constantFrom('title', 'artist', 'album', 'kind', 'status', 'id'), nasty, {
      maxKeys: 4,
    });
    const id = items[2]!.id;
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const before = (await settledLibrary(t.app, staff)).find((item) => item.id === id)!;
        const res = await patch(id, payload);
        const parsed = mediaUpdateSchema.safeParse(payload);
        if (!parsed.success) {
          expect(res.statusCode, res.body).toBe(400);
          expect((await listLibrary(t.app, staff)).find((item) => item.id === id)).toEqual(before);
        } else {
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toEqual({ ...before, ...parsed.data });
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('bad ids', () => {
  it('are answered with a 4xx and a message at every endpoint taking one, never a 5xx, changing nothing', async () => {
    const before = await settledLibrary(t.app, staff);
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.uuid(),
      fc.constantFrom('../../etc/passwd', '%00', "' or 1=1 --", 'x'.repeat(500), '💒'),
    );
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        // '.' and '..' are not ids but path steps: the address they make is another route's.
        fc.pre(value !== '.' && value !== '..');
        const at = encodeURIComponent(value);
        for (const [method, url, payload] of [
          ['PATCH', `/api/library/${at}`, { title: 'Renamed' }],
          ['DELETE', `/api/library/${at}`, undefined],
          ['POST', `/api/library/${at}/preview`, undefined],
          ['GET', `/api/library/${at}/audio?expires=9999999999&signature=abc`, undefined],
          ['GET', `/media/${at}`, undefined],
        ] as const) {
          const res = await t.app.inject({ method, url, headers: staff, payload });
          expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeLessThan(500);
          // A GET of a page-like address past the router's id length gets the station's 404 page.
          if (String(res.headers['content-type']).startsWith('text/html')) expect(res.statusCode).toBe(404);
          else expect(typeof res.json().message).toBe('string');
        }
      }),
      { numRuns: 40 },
    );
    expect(await listLibrary(t.app, staff)).toEqual(before);
    const missing = await patch('a2f0c3d4-0000-4000-8000-000000000000', { title: 'x' });
    expect(missing.json()).toEqual({ message: MEDIA_NOT_FOUND });
  });
});

describe('DELETE /api/library/:id', () => {
  const remove = (id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/library/${id}`, headers: staff });
  const feature = async (audioUrl: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/featured-content',
      headers: staff,
      payload: { title: 'Good Friday', description: 'The service', type: 'sermon', audioUrl },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  it('removes the item, its file and its subtitles', async () => {
    const item = await addItem();
    for (const language of ['en', 'pt-BR'])
      writeFileSync(path.join(mediaDir, `${item.id}.${language}.vtt`), 'WEBVTT\n');
    writeFileSync(path.join(mediaDir, 'keep-me.en.vtt'), 'WEBVTT\n');
    await whenMeasured(t.app, staff, item.id);
    const res = await remove(item.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(readdirSync(mediaDir).filter((name) => name.startsWith(item.id))).toEqual([]);
    expect(existsSync(path.join(mediaDir, 'keep-me.en.vtt'))).toBe(true);
    expect((await listLibrary(t.app, staff)).map((i) => i.id)).not.toContain(item.id);
    expect((await remove(item.id)).statusCode).toBe(404);
  });

  it('is refused with 409 while a featured item plays its audio, and its audio plays for listeners only then', async () => {
    const item = await addItem('featured.wav');
    const file = path.join(mediaDir, `${item.id}.wav`);
    expect((await t.app.inject({ url: libraryAudioUrl(item.id) })).statusCode).toBe(404);
    const featuredId = await feature(libraryAudioUrl(item.id));

    const played = await t.app.inject({ url: libraryAudioUrl(item.id), headers: { range: 'bytes=0-99' } });
    expect(played.statusCode).toBe(206);
    expect(played.headers['content-type']).toBe('audio/wav');
    expect(played.rawPayload.equals(tone.subarray(0, 100))).toBe(true);

    const refused = await remove(item.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: mediaInUse('Good Friday') });
    expect(existsSync(file)).toBe(true);

    await t.app.inject({ method: 'DELETE', url: `/api/featured-content/${featuredId}`, headers: staff });
    expect((await t.app.inject({ url: libraryAudioUrl(item.id) })).statusCode).toBe(404);
    expect((await remove(item.id)).statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
  });
});

describe('POST /api/library/:id/artwork', () => {
  const send = (id: string, data: Buffer, field = 'image') => {
    const body = multipartBody(field, 'cover.jpg', 'image/jpeg', data);
    return t.app.inject({
      method: 'POST',
      url: `/api/library/${id}/artwork`,
      headers: { ...staff, ...body.headers },
      payload: body.payload,
    });
  };
  const picture = () =>
    sharp({ create: { width: 2400, height: 2400, channels: 3, background: '#7c2d12' } })
      .jpeg()
      .toBuffer();

  it('stores the picture re-encoded, as every upload is, and it becomes the artwork', async () => {
    const res = await send(items[1]!.id, await picture());
    expect(res.statusCode, res.body).toBe(200);
    const { artwork_url } = res.json<MediaItem>();
    expect(artwork_url).toMatch(/^\/uploads\/[0-9a-f]{32}\.jpg$/);
    const served = await t.app.inject({ url: artwork_url! });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1600 });
  });

  it.each([
    ['text named .jpg', async () => Buffer.from('not a picture'), 'image', 400, INVALID_FILE_TYPE.message],
    ['a picture in another field', picture, 'file', 400, INVALID_FILE_TYPE.message],
    ['a file over 5 MB', async () => Buffer.alloc(5 * 1024 * 1024 + 1), 'image', 413, /smaller than 5MB/],
  ])('refuses %s with a clear message', async (_c, data, field, status, message) => {
    const before = await settledLibrary(t.app, staff);
    const res = await send(items[0]!.id, await data(), field);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await listLibrary(t.app, staff)).toEqual(before);
  });

  it('leaves no picture behind in uploads/ when the artwork is replaced or its item deleted', async () => {
    const fileOf = (url: string | null) => path.join(dataDir, 'uploads', path.basename(url!));
    const item = await addItem('covered.wav');
    const first = (await send(item.id, await picture())).json<MediaItem>().artwork_url;
    expect(existsSync(fileOf(first))).toBe(true);
    const second = (await send(item.id, await picture())).json<MediaItem>().artwork_url;
    expect(second).not.toBe(first);
    expect(existsSync(fileOf(first))).toBe(false);
    expect(existsSync(fileOf(second))).toBe(true);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: staff });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(existsSync(fileOf(second))).toBe(false);
  });

  it('answers 404 for an item that is not there', async () => {
    const res = await send('a2f0c3d4-0000-4000-8000-000000000000', await picture());
    expect(res.statusCode).toBe(404);
  });
});

describe('POST /api/library/:id/preview', () => {
  it('gives an address that plays for ten minutes with no token, with byte ranges', async () => {
    const item = items[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/library/${item.id}/preview`,
      headers: staff,
    });
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(new RegExp(`^/api/library/${item.id}/audio\\?expires=\\d+&signature=[\\w-]+$`));
    const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const whole = await t.app.inject({ url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(tone)).toBe(true);
    const part = await t.app.inject({ url, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${tone.length}`);
    expect(part.rawPayload.equals(tone.subarray(1000, 2000))).toBe(true);
    const beyond = await t.app.inject({ url, headers: { range: `bytes=${tone.length + 10}-` } });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses an address whose time is up, or that was changed', async () => {
    const id = items[0]!.id;
    const old = (await previewUrl(t.db, id, Date.now() - 11 * 60_000))!;
    expect((await t.app.inject({ url: old })).json()).toEqual({ message: PREVIEW_LINK_EXPIRED });
    const fresh = (await previewUrl(t.db, id))!;
    const otherItem = fresh.replace(id, items[1]!.id);
    const later = fresh.replace(/expires=(\d+)/, (_m, at: string) => `expires=${Number(at) + 3600}`);
    for (const url of [otherItem, later, fresh.replace(/signature=.*/, 'signature=forged')])
      expect((await t.app.inject({ url })).statusCode).toBe(404);
    expect((await t.app.inject({ url: fresh.split('?')[0]! })).statusCode).toBe(400);
  });
});
