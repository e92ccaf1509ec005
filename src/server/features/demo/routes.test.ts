import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featuredContent, programs } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { seedDemoContent } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let presenter: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await addStaff(t.db, 'editor', 'admin')).headers;
  presenter = (await addStaff(t.db, 'voice', 'presenter')).headers;
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url, headers });
const sampleLeft = async () => (await get('/api/admin/sample-content')).json();
const removal = (payload: unknown, headers: Record<string, string> = admin) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/sample-content/removal',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });
type Titled = { id: string; title: string; sample?: boolean };
const weekTitles = async () => ((await get('/api/programs')).json().programs as Titled[]).map((p) => p.title);
const featuredTitles = async () =>
  ((await get('/api/featured-content', {})).json() as Titled[]).map((i) => i.title);

describe('sample content', () => {
  it('is seeded once, every row marked, and listed as sample to staff', async () => {
    expect(await seedDemoContent(t.db)).toBe(true);
    expect(await seedDemoContent(t.db)).toBe(false);
    const rows = await t.db.select({ sample: programs.sample }).from(programs);
    expect(rows.length).toBe(43);
    expect(rows.every((row) => row.sample)).toBe(true);
    const items = await t.db.select({ sample: featuredContent.sample }).from(featuredContent);
    expect(items.map((item) => item.sample)).toEqual([true, true, true, true]);

    expect(await sampleLeft()).toEqual({ programs: 43, featured: 4 });
    const week = (await get('/api/programs')).json().programs as Titled[];
    expect(week.every((p) => p.sample === true)).toBe(true);
    const featured = (await get('/api/featured-content', {})).json() as Titled[];
    expect(featured.every((i) => i.sample === true)).toBe(true);
  });

  it('refuses anyone but staff: 401 signed out, 403 a presenter', async () => {
    expect((await get('/api/admin/sample-content', {})).statusCode).toBe(401);
    expect((await get('/api/admin/sample-content', presenter)).statusCode).toBe(403);
    expect((await removal({ confirm: true }, {})).statusCode).toBe(401);
    expect((await removal({ confirm: true }, presenter)).statusCode).toBe(403);
    expect(await sampleLeft()).toEqual({ programs: 43, featured: 4 });
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['confirm false', { confirm: false }],
    ['confirm as text', { confirm: 'true' }],
    ['a list', [{ confirm: true }]],
    ['null', null],
    ['an extra field', { confirm: true, everything: true }],
  ])('answers 400 to %s and removes nothing', async (_name, payload) => {
    const answer =
      payload === undefined
        ? await t.app.inject({ method: 'POST', url: '/api/admin/sample-content/removal', headers: admin })
        : await removal(payload);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toEqual(expect.any(String));
    expect(await sampleLeft()).toEqual({ programs: 43, featured: 4 });
  });

  it("removes only the sample: staff's own and edited items, and one-off replacements, stay", async () => {
    const week = (await get('/api/programs')).json().programs as Titled[];
    const sunday = week.find((p) => p.title === 'Sunday Service')!;
    const praise = week.find((p) => p.title === 'Morning Praise')!;
    const night = week.find((p) => p.title === 'Night Prayer')!;
    // Staff make a programme of their own, edit one sample programme and only switch another off.
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/programs',
      headers: admin,
      payload: { title: 'Our Bible Hour', startTime: '23:00', duration: 30, dayOfWeek: 'monday' },
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().sample).toBe(false);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/programs/${praise.id}`,
      headers: admin,
      payload: { title: 'Praise at Dawn' },
    });
    expect(edited.json().sample).toBe(false);
    const switchedOff = await t.app.inject({
      method: 'PATCH',
      url: `/api/programs/${night.id}`,
      headers: admin,
      payload: { isActive: false },
    });
    expect(switchedOff.json().sample).toBe(true);
    // A one-off replacement of a sample programme, and a cancellation of another.
    const replaced = await t.app.inject({
      method: 'POST',
      url: '/api/programs/one-offs',
      headers: admin,
      payload: {
        kind: 'replace',
        date: '2099-12-27',
        programId: sunday.id,
        title: 'Christmas Carols',
        startTime: '10:00',
        duration: 90,
      },
    });
    expect(replaced.statusCode).toBe(201);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/api/programs/one-offs',
      headers: admin,
      payload: {
        kind: 'cancel',
        date: '2099-12-28',
        programId: week.find((p) => p.title === 'Midday Word')!.id,
      },
    });
    expect(cancelled.statusCode).toBe(201);

    const featured = (await get('/api/featured-content', {})).json() as Titled[];
    const faith = featured.find((i) => i.title === 'Walking in Faith')!;
    const editedItem = await t.app.inject({
      method: 'PUT',
      url: `/api/featured-content/${faith.id}`,
      headers: admin,
      payload: { title: 'Walking in Faith', type: 'sermon', description: 'Our own notes on Hebrews 11.' },
    });
    expect(editedItem.json().sample).toBe(false);
    const ownItem = await t.app.inject({
      method: 'POST',
      url: '/api/featured-content',
      headers: admin,
      payload: { title: 'Easter at Grace', type: 'announcement', description: 'Join us.' },
    });
    expect(ownItem.json().sample).toBe(false);
    expect(await sampleLeft()).toEqual({ programs: 42, featured: 3 });

    const answer = await removal({ confirm: true });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ removed: { programs: 42, featured: 3 } });

    expect((await weekTitles()).sort()).toEqual(['Our Bible Hour', 'Praise at Dawn']);
    expect((await featuredTitles()).sort()).toEqual(['Easter at Grace', 'Walking in Faith']);
    const oneOffs = (await get('/api/programs/one-offs?from=2099-12-01&to=2099-12-31')).json();
    expect(oneOffs).toEqual([
      expect.objectContaining({
        kind: 'add',
        programId: null,
        title: 'Christmas Carols',
        date: '2099-12-27',
      }),
    ]);
    expect(await sampleLeft()).toEqual({ programs: 0, featured: 0 });
    // Nothing of it left in the tables either (removed, not hidden).
    expect(await t.db.select().from(featuredContent).where(eq(featuredContent.sample, true))).toEqual([]);
  });

  it('removes nothing more when asked again, and a restart does not seed it again', async () => {
    const again = await removal({ confirm: true });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ removed: { programs: 0, featured: 0 } });
    expect(await seedDemoContent(t.db)).toBe(false);
    expect(await sampleLeft()).toEqual({ programs: 0, featured: 0 });
    expect((await weekTitles()).sort()).toEqual(['Our Bible Hour', 'Praise at Dawn']);
  });

  it("leaves the public site none of it: today's programmes and the featured list", async () => {
    const today = (await get('/api/programs/today', {})).json() as Titled[];
    const seeded = ['Morning Praise', 'Daily Devotion', 'Midday Word', 'Sunday Service', 'Weekend Worship'];
    expect(today.filter((p) => seeded.includes(p.title))).toEqual([]);
    expect(await featuredTitles()).not.toContain('Morning Light');
  });
});
