import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIO_NO_LONGER_STORED,
  IMAGE_NO_LONGER_STORED,
  type FeaturedItem,
} from '../../../common/featured-content.js';
import type { MediaItem } from '../../../common/library.js';
import { featuredContent } from '../../db/schema.js';
import { makeMp3 } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { settledLibrary, toneFile, uploadMedia } from '../../test/library.js';
import { postFile } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

// PUT /api/featured-content/:id as the Content tab's one form sends it: every field, the image and the audio
// replaced or removed, and what that leaves in uploads/.

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let presenter: Record<string, string>;
let sermonMp3: Buffer;
const work = mkdtempSync(path.join(os.tmpdir(), 'featured-edit-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'featured-edit-data-'));

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  staff = (await addStaff(t.db, 'editor', 'admin')).headers;
  presenter = (await addStaff(t.db, 'voice', 'presenter')).headers;
  sermonMp3 = readFileSync(await makeMp3(path.join(work, 'sermon.mp3'), { seconds: 2 }));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const stored = (url: string | null | undefined) =>
  existsSync(path.join(dataDir, 'uploads', path.basename(url!)));

async function uploadImage(colour = '#1e3a8a') {
  const data = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const res = await postFile(t.app, '/api/upload-image', staff, {
    field: 'image',
    filename: 'cover.png',
    type: 'image/png',
    data,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ imageUrl: string }>().imageUrl;
}

async function uploadAudio() {
  const res = await postFile(t.app, '/api/upload-audio', staff, {
    field: 'audio',
    filename: 'Sermon.mp3',
    type: 'audio/mpeg',
    data: sermonMp3,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ audioUrl: string }>().audioUrl;
}

const base = { title: 'Living Water', description: 'John 4', type: 'sermon' };

async function addItem(fields: object = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/featured-content',
    headers: staff,
    payload: { ...base, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FeaturedItem>();
}

const put = (id: string, payload: unknown, headers = staff) =>
  t.app.inject({ method: 'PUT', url: `/api/featured-content/${id}`, headers, payload: payload as object });

const rowOf = async (id: string) =>
  (await t.db.select().from(featuredContent).where(eq(featuredContent.id, id)))[0];

describe('PUT /api/featured-content/:id takes every field', () => {
  it('changes speaker and duration, replaces the image and removes the audio; the old picture leaves uploads/', async () => {
    const firstImage = await uploadImage();
    const audioUrl = await uploadAudio();
    const item = await addItem({ imageUrl: firstImage, audioUrl, speaker: 'Pastor Ruth', duration: '0:02' });
    const secondImage = await uploadImage('#7c2d12');

    const res = await put(item.id, {
      ...base,
      speaker: 'Deacon Samuel',
      duration: '45:00',
      imageUrl: secondImage,
      audioUrl: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = { speaker: 'Deacon Samuel', duration: '45:00', imageUrl: secondImage, audioUrl: null };
    expect(res.json()).toMatchObject(expected);
    const listed = (await t.app.inject({ url: '/api/featured-content' })).json<FeaturedItem[]>();
    expect(listed.find((i) => i.id === item.id)).toMatchObject(expected);

    expect(stored(firstImage)).toBe(false);
    expect((await t.app.inject({ url: firstImage })).statusCode).toBe(404);
    expect((await t.app.inject({ url: secondImage })).statusCode).toBe(200);
    // The recording is a library item: it stays, and the Library tab may now delete it.
    expect(stored(audioUrl)).toBe(true);
    const [sermon] = (await settledLibrary(t.app, staff)).filter((m) => m.original_name === 'Sermon.mp3');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/library/${sermon!.id}`,
      headers: staff,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(stored(audioUrl)).toBe(false);
  });

  it("clears speaker, duration and image with null or ''; a field left out keeps its value", async () => {
    const imageUrl = await uploadImage();
    const item = await addItem({ imageUrl, speaker: 'Ruth', duration: '3:07' });
    const cleared = await put(item.id, { ...base, speaker: '', duration: null, imageUrl: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ speaker: null, duration: null, imageUrl: null });
    expect(stored(imageUrl)).toBe(false);

    await put(item.id, { ...base, speaker: 'Ruth' });
    const kept = await put(item.id, { ...base, title: 'Renamed' });
    expect(kept.json()).toMatchObject({ title: 'Renamed', speaker: 'Ruth', imageUrl: null });
  });

  it('keeps a picture that another featured item, even a deleted one, or a library item still shows', async () => {
    const shared = await uploadImage();
    const one = await addItem({ imageUrl: shared });
    const other = await addItem({ imageUrl: shared });
    await put(one.id, { ...base, imageUrl: null });
    expect(stored(shared)).toBe(true);
    await t.app.inject({ method: 'DELETE', url: `/api/featured-content/${other.id}`, headers: staff });
    await put(one.id, { ...base, imageUrl: shared });
    await put(one.id, { ...base, imageUrl: null });
    expect(stored(shared)).toBe(true);

    // A published recording's item shows its library artwork.
    const tone = await toneFile(work, 'hymn.wav', { seconds: 1 });
    const media = (await uploadMedia(t.app, staff, tone, 'hymn.wav')).json<MediaItem>();
    const cover = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#14532d' } })
      .jpeg()
      .toBuffer();
    const artwork = await postFile(t.app, `/api/library/${media.id}/artwork`, staff, {
      field: 'image',
      filename: 'cover.jpg',
      type: 'image/jpeg',
      data: cover,
    });
    const artworkUrl = artwork.json<MediaItem>().artwork_url!;
    const published = await addItem({ imageUrl: artworkUrl });
    expect((await put(published.id, { ...base, imageUrl: null })).statusCode).toBe(200);
    expect(stored(artworkUrl)).toBe(true);
  });

  it('refuses a picture or recording removed since the form was opened, and changes nothing', async () => {
    const first = await uploadImage();
    const item = await addItem({ imageUrl: first });
    const second = await uploadImage('#7c2d12');
    await put(item.id, { ...base, imageUrl: second });
    expect(stored(first)).toBe(false);

    // A second form, opened before the replacement, saves the first picture back.
    const before = await rowOf(item.id);
    const stale = await put(item.id, { ...base, title: 'From the other tab', imageUrl: first });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ message: IMAGE_NO_LONGER_STORED });
    const goneAudio = await put(item.id, {
      ...base,
      audioUrl: '/uploads/0123456789abcdef0123456789abcdef.mp3',
    });
    expect(goneAudio.json()).toEqual({ message: AUDIO_NO_LONGER_STORED });
    expect(await rowOf(item.id)).toEqual(before);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/featured-content',
      headers: staff,
      payload: { ...base, imageUrl: first },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json()).toEqual({ message: IMAGE_NO_LONGER_STORED });
  });

  it('still saves an item whose stored picture went missing, when the form sends it back unchanged', async () => {
    const imageUrl = await uploadImage();
    const item = await addItem({ imageUrl });
    rmSync(path.join(dataDir, 'uploads', path.basename(imageUrl)));
    const res = await put(item.id, { ...base, title: 'Still editable', imageUrl });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('PUT /api/featured-content/:id refuses bad input', () => {
  const cases: [string, unknown, number, RegExp][] = [
    ['a blank title', { ...base, title: '  ' }, 400, /Title is required/],
    ['no description', { title: 'x', type: 'sermon' }, 400, /Description is required/],
    ['an unknown type', { ...base, type: 'podcast' }, 400, /Type must be/],
    ['a script address as image', { ...base, imageUrl: 'javascript:alert(1)' }, 400, /uploaded file/],
    ['a path out of uploads as image', { ...base, imageUrl: '/uploads/../secret' }, 400, /uploaded file/],
    ['a library address as image', { ...base, imageUrl: '/media/abc' }, 400, /uploaded file/],
    ['a number as audio', { ...base, audioUrl: 5 }, 400, /.+/],
    ['a folder address as audio', { ...base, audioUrl: '/uploads/' }, 400, /uploaded file/],
    ['a speaker too long', { ...base, speaker: 'x'.repeat(121) }, 400, /.+/],
    ['a duration too long', { ...base, duration: '1'.repeat(41) }, 400, /.+/],
    ['a control character in the speaker', { ...base, speaker: 'Ruth\u0007' }, 400, /.+/],
    ['an object as duration', { ...base, duration: { minutes: 3 } }, 400, /.+/],
    ['no body', undefined, 400, /.+/],
  ];

  it.each(cases)(
    'refuses %s with a clear message, changing nothing',
    async (_case, payload, status, message) => {
      const item = await addItem({ speaker: 'Ruth', duration: '3:07' });
      const before = await rowOf(item.id);
      const res = await put(item.id, payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(await rowOf(item.id)).toEqual(before);
    },
  );

  it('answers 401 without a token, 403 to a presenter and 404 for an unknown or deleted item', async () => {
    const item = await addItem();
    const before = await rowOf(item.id);
    expect((await put(item.id, base, {})).statusCode).toBe(401);
    expect((await put(item.id, base, presenter)).statusCode).toBe(403);
    expect(await rowOf(item.id)).toEqual(before);
    expect((await put('00000000-0000-4000-8000-000000000000', base)).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/api/featured-content/${item.id}`, headers: staff });
    expect((await put(item.id, base)).statusCode).toBe(404);
  });

  it('answers any image, audio, speaker and duration with 200 or a 400 that changes nothing', async () => {
    const item = await addItem();
    const value = fc.oneof(
      fc.constantFrom(null, '', ' ', 0, true, [], {}, '/uploads/a.png', '/media/x', 'https://e.org/a'),
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { imageUrl: value, audioUrl: value, speaker: value, duration: value },
          { requiredKeys: [] },
        ),
        async (fields) => {
          const before = await rowOf(item.id);
          const res = await put(item.id, { ...base, ...fields });
          expect([200, 400]).toContain(res.statusCode);
          if (res.statusCode === 400) {
            expect(typeof res.json().message).toBe('string');
            expect(await rowOf(item.id)).toEqual(before);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
