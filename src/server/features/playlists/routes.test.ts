import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_NOT_FOUND } from '../../../common/library.js';
import {
  INSERT_RULE_NEEDS_INTERVAL,
  INSERT_RULE_NEEDS_KIND,
  mediaInPlaylist,
  PLAYLIST_NOT_FOUND,
  playlistCreateSchema,
  playlistItemsBodySchema,
  playlistNameTaken,
  playlistUpdateSchema,
  unknownMediaItems,
  type PlaylistDetail,
} from '../../../common/playlists.js';
import { mediaItems } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let superuser: Record<string, string>;
let deactivated: Record<string, string>;
const media: string[] = [];

/** A measured library item, written straight to its table (the upload path is the library's to test). */
async function addMedia(fields: Partial<typeof mediaItems.$inferInsert> = {}) {
  const id = randomUUID();
  await t.db.insert(mediaItems).values({
    id,
    title: `Hymn ${id.slice(0, 4)}`,
    kind: 'music',
    status: 'ready',
    originalName: `${id}.mp3`,
    path: `media/${id}.mp3`,
    format: 'mp3',
    sizeBytes: 1000,
    durationSeconds: 240,
    ...fields,
  });
  return id;
}

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers = admin,
) => t.app.inject({ method, url, headers, payload: payload as object });
const create = (payload: unknown, headers = admin) => call('POST', '/api/admin/playlists', payload, headers);
const list = async () => {
  const res = await call('GET', '/api/admin/playlists');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().playlists as PlaylistDetail[];
};
/** Everything stored: every playlist with its items. */
const everything = async () =>
  Promise.all(
    (await list()).map(async (playlist) => (await call('GET', `/api/admin/playlists/${playlist.id}`)).json()),
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = (await addStaff(t.db, 'music-director', 'admin')).headers;
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  const gone = await addStaff(t.db, 'former-director', 'admin');
  deactivated = gone.headers;
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/toggle-status',
    headers: superuser,
    payload: { userId: gone.id, isActive: false },
  });
  media.push(
    await addMedia({ title: 'Amazing Grace', artist: 'Grace Choir', durationSeconds: 200 }),
    await addMedia({ title: 'Be Thou My Vision', artist: 'St. Mary Choir', kind: 'music' }),
    await addMedia({ title: 'Romans 8', artist: 'Pastor John', kind: 'sermon', durationSeconds: 1800 }),
    await addMedia({ title: 'Still uploading', status: 'analysing', durationSeconds: null }),
  );
});
afterAll(() => t.close());

describe('who may call', () => {
  const endpoints = (id: string) =>
    [
      ['GET', '/api/admin/playlists', undefined],
      ['POST', '/api/admin/playlists', { name: 'Intruders' }],
      ['GET', `/api/admin/playlists/${id}`, undefined],
      ['PATCH', `/api/admin/playlists/${id}`, { name: 'Renamed' }],
      ['PUT', `/api/admin/playlists/${id}/items`, { media_ids: [] }],
      ['DELETE', `/api/admin/playlists/${id}`, undefined],
    ] as const;

  it.each([
    ['no token', () => ({})],
    ['a token nobody holds', () => ({ authorization: 'Bearer not-a-session' })],
    ['a deactivated account', () => deactivated],
  ])('refuses %s with a 401 at every endpoint, changing nothing', async (_c, headers) => {
    const { id } = (await create({ name: `Guarded ${randomUUID()}` })).json();
    await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [media[0]] });
    const before = await everything();
    for (const [method, url, payload] of endpoints(id)) {
      const res = await call(method, url, payload, headers());
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().message).toMatch(/sign in/i);
    }
    expect(await everything()).toEqual(before);
    await call('DELETE', `/api/admin/playlists/${id}`);
  });

  it('lets admins and superusers alike do everything', async () => {
    for (const headers of [admin, superuser]) {
      const res = await create({ name: `Staff ${randomUUID()}` }, headers);
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json();
      for (const [method, url, payload] of endpoints(id))
        if (method !== 'POST')
          expect((await call(method, url, payload, headers)).statusCode, `${method} ${url}`).toBe(200);
    }
  });
});

describe('a playlist from start to end', () => {
  it('is created with the defaults, gets items in order, changes, and is deleted', async () => {
    const res = await create({ name: '  Morning Worship  ' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<PlaylistDetail>();
    expect(created).toMatchObject({
      name: 'Morning Worship',
      order: 'shuffle',
      in_rotation: false,
      weight: 1,
      insert_kind: null,
      insert_every_songs: null,
      insert_every_minutes: null,
      no_repeat_title_minutes: 120,
      no_repeat_artist_minutes: 30,
      item_count: 0,
      items: [],
      warning: 'This playlist is empty: add items from the library.',
    });

    const order = [media[2]!, media[0]!, media[3]!, media[1]!];
    const set = await call('PUT', `/api/admin/playlists/${created.id}/items`, { media_ids: order });
    expect(set.statusCode, set.body).toBe(200);
    const filled = set.json<PlaylistDetail>();
    expect(filled.items).toEqual([
      {
        media_id: media[2],
        title: 'Romans 8',
        artist: 'Pastor John',
        kind: 'sermon',
        status: 'ready',
        duration_seconds: 1800,
      },
      {
        media_id: media[0],
        title: 'Amazing Grace',
        artist: 'Grace Choir',
        kind: 'music',
        status: 'ready',
        duration_seconds: 200,
      },
      {
        media_id: media[3],
        title: 'Still uploading',
        artist: '',
        kind: 'music',
        status: 'analysing',
        duration_seconds: null,
      },
      {
        media_id: media[1],
        title: 'Be Thou My Vision',
        artist: 'St. Mary Choir',
        kind: 'music',
        status: 'ready',
        duration_seconds: 240,
      },
    ]);
    expect(filled).toMatchObject({ item_count: 4, ready_count: 3, duration_seconds: 2240 });
    expect(filled.warning).toMatch(
      /^Only 3 songs \(38 minutes of music\): with no repeat of a title within 120 minutes/,
    );

    const patched = await call('PATCH', `/api/admin/playlists/${created.id}`, {
      order: 'in_order',
      in_rotation: true,
      weight: 3,
      no_repeat_title_minutes: 30,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ order: 'in_order', in_rotation: true, weight: 3, warning: null });
    expect(patched.json().items).toEqual(filled.items);

    const reordered = await call('PUT', `/api/admin/playlists/${created.id}/items`, {
      media_ids: [media[1], media[0]],
    });
    expect(reordered.json().items.map((item: { media_id: string }) => item.media_id)).toEqual([
      media[1],
      media[0],
    ]);

    expect((await list()).find((p) => p.id === created.id)).toMatchObject({
      name: 'Morning Worship',
      item_count: 2,
    });
    const removed = await call('DELETE', `/api/admin/playlists/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ ok: true });
    expect((await call('GET', `/api/admin/playlists/${created.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/playlists/${created.id}`)).json()).toEqual({
      message: PLAYLIST_NOT_FOUND,
    });
  });

  it('warns when the insert kind has nothing ready in the library', async () => {
    const res = await create({
      name: `Jingles ${randomUUID()}`,
      insert_kind: 'jingle',
      insert_every_songs: 4,
    });
    const { id } = res.json();
    const set = await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [media[0]] });
    expect(set.json().warning).toMatch(/^No jingle is ready in the library/);
  });
});

describe('bad input', () => {
  it.each([
    ['no name', {}, 400, /Name is required$/],
    ['an empty name', { name: '   ' }, 400, 'Name is required'],
    ['a name on two lines', { name: 'a\nb' }, 400, /line breaks/],
    ['a weight of 0', { name: 'W', weight: 0 }, 400, 'Weight must be a whole number from 1 to 100'],
    ['a weight of 101', { name: 'W', weight: 101 }, 400, 'Weight must be a whole number from 1 to 100'],
    ['a weight of 2.5', { name: 'W', weight: 2.5 }, 400, /Weight must be a whole number/],
    ['every 51 songs', { name: 'W', insert_kind: 'station_id', insert_every_songs: 51 }, 400, /from 1 to 50/],
    [
      'every 241 minutes',
      { name: 'W', insert_kind: 'jingle', insert_every_minutes: 241 },
      400,
      /from 1 to 240/,
    ],
    ['an unknown order', { name: 'W', order: 'random' }, 400, /Order must be one of/],
    ['an unknown insert kind', { name: 'W', insert_kind: 'sermon' }, 400, /Insert kind must be one of/],
    ['an interval with no kind', { name: 'W', insert_every_songs: 4 }, 400, INSERT_RULE_NEEDS_KIND],
    ['a kind with no interval', { name: 'W', insert_kind: 'jingle' }, 400, INSERT_RULE_NEEDS_INTERVAL],
    ['a negative no-repeat time', { name: 'W', no_repeat_title_minutes: -1 }, 400, /from 0 to 1440/],
    ['a field that is not theirs', { name: 'W', id: 'x' }, 400, /Unrecognized key/i],
  ])('refuses to create with %s, saying why, storing nothing', async (_c, body, status, message) => {
    const before = await everything();
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await everything()).toEqual(before);
  });

  it('refuses a name already taken, whatever its case, on create and rename', async () => {
    const first = (await create({ name: 'Evening Hymns' })).json();
    const second = (await create({ name: 'Night Prayer' })).json();
    const before = await everything();
    const again = await create({ name: 'evening HYMNS' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: playlistNameTaken('evening HYMNS') });
    const rename = await call('PATCH', `/api/admin/playlists/${second.id}`, { name: 'Evening Hymns' });
    expect(rename.statusCode).toBe(409);
    expect(await everything()).toEqual(before);
    // Its own name, in another case, is no clash.
    const same = await call('PATCH', `/api/admin/playlists/${first.id}`, { name: 'EVENING HYMNS' });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('refuses items that are not in the library, or twice over, changing nothing', async () => {
    const { id } = (await create({ name: `Checked ${randomUUID()}` })).json();
    await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [media[0]] });
    const before = await everything();
    const unknown = await call('PUT', `/api/admin/playlists/${id}/items`, {
      media_ids: [media[1], randomUUID()],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: unknownMediaItems(1) });
    const twice = await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [media[1], media[1]] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/Each library item can be in a playlist only once$/);
    const missing = await call('PUT', `/api/admin/playlists/${randomUUID()}/items`, {
      media_ids: [media[1]],
    });
    expect(missing.statusCode).toBe(404);
    expect(await everything()).toEqual(before);
  });

  it('answers any create body with 201, or a 4xx its contract explains; never a 5xx (fast-check)', async () => {
    const value = fc.oneof(
      fc.constantFrom(
        null,
        '',
        ' ',
        '\u0000',
        '\ud800',
        'x'.repeat(300),
        'shuffle',
        'in_order',
        'jingle',
        'station_id',
        true,
        [],
        {},
      ),
      fc.integer({ min: -10, max: 300 }),
      fc.double(),
      fc.string({ maxLength: 12 }),
    );
    const body = fc.dictionary(
      fc.constantFrom(
        'name',
        'order',
        'in_rotation',
        'weight',
        'insert_kind',
        'insert_every_songs',
        'insert_every_minutes',
        'no_repeat_title_minutes',
        'no_repeat_artist_minutes',
        'extra',
      ),
      value,
      { maxKeys: 6 },
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const before = await list();
        const res = await create(payload);
        const parsed = playlistCreateSchema.safeParse(payload);
        expect(res.statusCode, `${JSON.stringify(payload)} -> ${res.body}`).toBeLessThan(500);
        if (!parsed.success) expect(res.statusCode).toBe(400);
        if (res.statusCode === 201) {
          expect(res.json()).toMatchObject(parsed.data!);
          await call('DELETE', `/api/admin/playlists/${res.json().id}`);
        } else {
          expect(typeof res.json().message).toBe('string');
          expect(await list()).toEqual(before);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('answers any update and any item list with 200 or a clear 4xx; never a 5xx (fast-check)', async () => {
    const { id } = (await create({ name: `Fuzzed ${randomUUID()}` })).json();
    const value = fc.oneof(
      fc.constantFrom(null, '', '\u0000', 'shuffle', 'jingle', true, 0, 1, 50, 100, 241, 1441, -1, 2.5, []),
      fc.string({ maxLength: 12 }),
    );
    const update = fc.dictionary(
      fc.constantFrom(
        'name',
        'order',
        'in_rotation',
        'weight',
        'insert_kind',
        'insert_every_songs',
        'insert_every_minutes',
        'no_repeat_title_minutes',
      ),
      value,
      { maxKeys: 4 },
    );
    const ids = fc.oneof(
      fc.array(fc.constantFrom(...media, randomUUID(), '../x', '', 'x'.repeat(200)), { maxLength: 5 }),
      fc.constantFrom(null, 'abc', 7, {}),
    );
    await fc.assert(
      fc.asyncProperty(update, ids, async (patch, mediaIds) => {
        const before = (await call('GET', `/api/admin/playlists/${id}`)).json();
        const res = await call('PATCH', `/api/admin/playlists/${id}`, patch);
        expect(res.statusCode, `${JSON.stringify(patch)} -> ${res.body}`).toBeLessThan(500);
        if (!playlistUpdateSchema.safeParse(patch).success) expect(res.statusCode).toBe(400);
        if (res.statusCode !== 200)
          expect((await call('GET', `/api/admin/playlists/${id}`)).json()).toEqual(before);

        const middle = (await call('GET', `/api/admin/playlists/${id}`)).json();
        const put = await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: mediaIds });
        expect(put.statusCode, `${JSON.stringify(mediaIds)} -> ${put.body}`).toBeLessThan(500);
        const parsed = playlistItemsBodySchema.safeParse({ media_ids: mediaIds });
        if (!parsed.success) expect(put.statusCode).toBe(400);
        if (put.statusCode === 200)
          expect(put.json().items.map((item: { media_id: string }) => item.media_id)).toEqual(mediaIds);
        else {
          expect(typeof put.json().message).toBe('string');
          expect((await call('GET', `/api/admin/playlists/${id}`)).json()).toEqual(middle);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('answers bad ids with a 4xx and a message at every endpoint taking one, never a 5xx', async () => {
    const before = await everything();
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.uuid(),
      fc.constantFrom('../../etc/passwd', '%00', "' or 1=1 --", 'x'.repeat(500), '💒'),
    );
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        fc.pre(value !== '.' && value !== '..');
        const at = encodeURIComponent(value);
        for (const [method, url, payload] of [
          ['GET', `/api/admin/playlists/${at}`, undefined],
          ['PATCH', `/api/admin/playlists/${at}`, { name: 'Renamed' }],
          ['PUT', `/api/admin/playlists/${at}/items`, { media_ids: [] }],
          ['DELETE', `/api/admin/playlists/${at}`, undefined],
        ] as const) {
          const res = await call(method, url, payload);
          expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeLessThan(500);
          if (!String(res.headers['content-type']).startsWith('text/html'))
            expect(typeof res.json().message).toBe('string');
        }
      }),
      { numRuns: 40 },
    );
    expect(await everything()).toEqual(before);
  });
});

describe('the library while a playlist holds an item', () => {
  it('refuses to delete the item with a 409 naming the playlist, and deletes it once removed there', async () => {
    const item = await addMedia({ title: 'Held' });
    const { id } = (await create({ name: 'Keeps Its Items' })).json();
    await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [item] });
    const refused = await call('DELETE', `/api/library/${item}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: mediaInPlaylist('Keeps Its Items') });
    expect((await call('GET', `/api/admin/playlists/${id}`)).json().items).toHaveLength(1);

    await call('PUT', `/api/admin/playlists/${id}/items`, { media_ids: [] });
    const removed = await call('DELETE', `/api/library/${item}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('DELETE', `/api/library/${item}`)).json()).toEqual({ message: MEDIA_NOT_FOUND });
  });
});
