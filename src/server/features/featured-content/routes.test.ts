import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featuredContent } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  staff = (await addStaff(t.db, 'editor', 'admin')).headers;
});
afterAll(() => t.close());

const list = async () => (await t.app.inject({ method: 'GET', url: '/api/featured-content' })).json();
const add = (payload: object, headers = staff) =>
  t.app.inject({ method: 'POST', url: '/api/featured-content', headers, payload });
const play = (id: string, address = '198.51.100.20') =>
  t.app.inject({
    method: 'POST',
    url: `/api/featured-content/${id}/play`,
    headers: { 'x-forwarded-for': address },
  });

describe('featured content', () => {
  it('adds, lists newest first with the listener fields, edits and deletes', async () => {
    const first = await add({
      title: '  Walking in Faith ',
      description: 'Hebrews 11',
      type: 'sermon',
      imageUrl: '',
      audioUrl: null,
    });
    expect(first.statusCode).toBe(201);
    const created = first.json();
    expect(created).toMatchObject({
      title: 'Walking in Faith',
      imageUrl: null,
      audioUrl: null,
      playCount: 0,
      type: 'sermon',
    });
    const second = (
      await add({
        title: 'Morning Light',
        description: 'Psalm 5',
        type: 'devotion',
        imageUrl: '/uploads/abc.png',
        speaker: 'Ruth',
      })
    ).json();

    const items = await list();
    expect(items.map((i: { id: string }) => i.id)).toEqual([second.id, created.id]);
    expect(Object.keys(items[0]).sort()).toEqual(
      [
        'audioUrl',
        'description',
        'duration',
        'id',
        'imageUrl',
        'playCount',
        'sample',
        'speaker',
        'title',
        'type',
      ].sort(),
    );

    // The Content tab edits title, type and description in place and sends the image and audio back unchanged.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/featured-content/${second.id}`,
      headers: staff,
      payload: {
        title: 'Morning Light (part 2)',
        type: 'music',
        description: 'Psalm 5 again',
        imageUrl: '/uploads/abc.png',
        audioUrl: null,
      },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({
      title: 'Morning Light (part 2)',
      type: 'music',
      imageUrl: '/uploads/abc.png',
      speaker: 'Ruth',
    });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/featured-content/${second.id}`,
      headers: staff,
    });
    expect(del.statusCode).toBe(200);
    expect((await list()).map((i: { id: string }) => i.id)).toEqual([created.id]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/featured-content/${second.id}`,
      headers: staff,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Featured content not found' });
  });

  it('refuses blank titles or descriptions, unknown types and foreign-scheme addresses, storing nothing', async () => {
    const before = await t.db.select().from(featuredContent);
    for (const payload of [
      { title: '   ', description: 'x', type: 'sermon' },
      { title: 'x', description: '', type: 'sermon' },
      { title: 'x', description: 'y', type: 'podcast' },
      { title: 'x', description: 'y', type: 'sermon', imageUrl: 'javascript:alert(1)' },
      { title: 'x\u0000', description: 'y', type: 'sermon' },
    ]) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
    expect(await t.db.select().from(featuredContent)).toEqual(before);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/featured-content/00000000-0000-0000-0000-000000000000',
      headers: staff,
      payload: { title: 'x', description: 'y', type: 'sermon' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('counts a play once per listener address per window, and 404s unknown or deleted items', async () => {
    const item = (
      await add({
        title: 'Songs of Hope',
        description: 'Live worship',
        type: 'music',
        audioUrl: '/uploads/songs-of-hope.mp3',
      })
    ).json();
    expect((await play(item.id)).json()).toEqual({ playCount: 1 });
    expect((await play(item.id)).json()).toEqual({ playCount: 1 });
    expect((await play(item.id, '198.51.100.21')).json()).toEqual({ playCount: 2 });
    const [row] = await t.db.select().from(featuredContent).where(eq(featuredContent.id, item.id));
    expect(row!.playCount).toBe(2);

    expect((await play('00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/api/featured-content/${item.id}`, headers: staff });
    expect((await play(item.id, '198.51.100.22')).statusCode).toBe(404);
  });

  it('refuses to count a play of an item without audio, with a clear 409, and counts nothing', async () => {
    const item = (
      await add({ title: 'Prayer Night', description: 'First Friday', type: 'announcement' })
    ).json();
    const cases: [string, number, RegExp][] = [
      [item.id, 409, /has no audio to play/],
      ['00000000-0000-0000-0000-000000000000', 404, /not found/],
      ['not an id!', 400, /.+/],
    ];
    for (const [id, status, message] of cases) {
      const res = await play(encodeURIComponent(id), '198.51.100.30');
      expect(res.statusCode, id).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const [row] = await t.db.select().from(featuredContent).where(eq(featuredContent.id, item.id));
    expect(row!.playCount).toBe(0);

    // Once staff give it a recording, a play counts.
    await t.app.inject({
      method: 'PUT',
      url: `/api/featured-content/${item.id}`,
      headers: staff,
      payload: {
        title: 'Prayer Night',
        description: 'First Friday',
        type: 'announcement',
        audioUrl: '/uploads/p.mp3',
      },
    });
    expect((await play(item.id, '198.51.100.30')).json()).toEqual({ playCount: 1 });
  });
});
