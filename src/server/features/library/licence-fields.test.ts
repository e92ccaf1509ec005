import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceClassOf, MEDIA_KINDS, type MediaItem } from '../../../common/library.js';
import { createTestApp } from '../../test/helpers.js';
import { uploadMedia } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let presenter: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'library-licence-'));

/** A 1-second MP3 whose ID3 tags carry what licences ask for, made by ffmpeg as any tagger would. */
function taggedMp3(name: string, tags: Record<string, string>) {
  const file = path.join(work, name);
  const metadata = Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'],
    ...[...metadata, '-id3v2_version', '3', '-c:a', 'libmp3lame', '-b:a', '64k', file],
  ]);
  return readFileSync(file);
}

async function upload(name: string, tags: Record<string, string>) {
  const res = await uploadMedia(t.app, staff, taggedMp3(name, tags), name);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MediaItem>();
}

const patch = (id: string, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: `/api/library/${id}`, headers: staff, payload: payload as object });
const bulk = (payload: unknown, headers = staff) =>
  t.app.inject({ method: 'POST', url: '/api/library/bulk', headers, payload: payload as object });

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'cantor', 'admin')).headers;
  presenter = (await addStaff(t.db, 'dj', 'presenter')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe('licence fields from the tags', () => {
  it('reads ISRC (TSRC), label (TPUB) and composer (TCOM) from ID3', async () => {
    const item = await upload('grace.mp3', {
      title: 'Amazing Grace',
      artist: 'Grace Choir',
      album: 'Hymns of Hope',
      TSRC: 'us-rc1-76-07839',
      publisher: 'Hope Records',
      composer: 'John Newton',
    });
    expect(item).toMatchObject({
      title: 'Amazing Grace',
      album: 'Hymns of Hope',
      isrc: 'USRC17607839',
      label: 'Hope Records',
      composer: 'John Newton',
      ccli_song_number: '',
    });
  });

  it('leaves a malformed ISRC out rather than reporting it', async () => {
    const item = await upload('odd.mp3', { title: 'Odd', TSRC: 'not-an-isrc' });
    expect(item.isrc).toBe('');
  });
});

describe('editing them', () => {
  it('sets and clears ISRC and CCLI number one item at a time', async () => {
    const item = await upload('edit.mp3', { title: 'Edit me' });
    let res = await patch(item.id, { isrc: 'GB-AAA-24-00001', ccli_song_number: '7115744', label: 'L' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ isrc: 'GBAAA2400001', ccli_song_number: '7115744', label: 'L' });
    res = await patch(item.id, { isrc: '', ccli_song_number: '' });
    expect(res.json()).toMatchObject({ isrc: '', ccli_song_number: '' });
  });

  it.each([
    [{ isrc: 'USRC1760783' }, 'ISRC'],
    [{ isrc: 'USRC176078399' }, 'ISRC'],
    [{ isrc: '12RC17607839' }, 'ISRC'],
    [{ ccli_song_number: 'CCLI 123' }, 'CCLI'],
    [{ ccli_song_number: '-5' }, 'CCLI'],
    [{ composer: 'a'.repeat(301) }, 'Composer'],
    [{ label: 'two\nlines' }, 'Label'],
  ])('refuses %j with a 400 naming the field', async (body, field) => {
    const item = await upload(`bad-${Math.random().toString(36).slice(2)}.mp3`, { title: 'x' });
    const res = await patch(item.id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(field);
  });
});

describe('bulk changes', () => {
  it('sets an album, label and songwriters on many items at once', async () => {
    const a = await upload('a.mp3', { title: 'A' });
    const b = await upload('b.mp3', { title: 'B' });
    const res = await bulk({
      ids: [a.id, b.id],
      changes: { album: 'Psalms', label: 'Zion', composer: 'Asaph' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    for (const id of [a.id, b.id]) {
      const item = await t.app.inject({ method: 'GET', url: `/api/library?search=Psalms`, headers: staff });
      expect(item.json<{ items: MediaItem[] }>().items.find((i) => i.id === id)).toMatchObject({
        album: 'Psalms',
        label: 'Zion',
        composer: 'Asaph',
      });
    }
  });

  it('changes nothing when one item named is gone (404)', async () => {
    const a = await upload('c.mp3', { title: 'C', album: 'Before' });
    const res = await bulk({ ids: [a.id, 'no-such-item'], changes: { album: 'After' } });
    expect(res.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/library?search=Before', headers: staff });
    expect(list.json<{ items: MediaItem[] }>().items.map((i) => i.id)).toContain(a.id);
  });

  it('is for staff only', async () => {
    expect((await bulk({ ids: ['x'], changes: { album: 'A' } }, {})).statusCode).toBe(401);
    expect((await bulk({ ids: ['x'], changes: { album: 'A' } }, presenter)).statusCode).toBe(403);
  });

  it('answers any malformed body with a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record({ ids: fc.anything(), changes: fc.anything() }),
          fc.record({
            ids: fc.array(fc.string(), { maxLength: 3 }),
            changes: fc.record({ isrc: fc.string(), title: fc.string() }, { requiredKeys: [] }),
          }),
        ),
        async (body) => {
          const res = await bulk(body);
          // A string is sent as text/plain (415); everything else is a 400 or names items not there (404).
          expect([400, 404, 415]).toContain(res.statusCode);
        },
      ),
      { numRuns: 60 },
    );
  });
});

it('sorts every kind into music, speech or jingle', () => {
  expect(MEDIA_KINDS.map((kind) => [kind, licenceClassOf(kind)])).toEqual([
    ['music', 'music'],
    ['sermon', 'speech'],
    ['devotion', 'speech'],
    ['jingle', 'jingle'],
    ['station_id', 'jingle'],
    ['announcement', 'speech'],
  ]);
});
