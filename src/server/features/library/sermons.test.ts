import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryAudioUrl, mediaInUse, type MediaItem } from '../../../common/library.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { settledLibrary, uploadMedia } from '../../test/library.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let work: string;
let sermon: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'deacon', 'admin')).headers;
  work = await tempAudioDir();
  sermon = readFileSync(await makeMp3(path.join(work, 'sermon.mp3'), { seconds: 2 }));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const feature = (audioUrl: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/featured-content',
    headers: staff,
    payload: { title: 'The Prodigal Son', description: 'Luke 15', type: 'sermon', audioUrl },
  });
const remove = (id: string) => t.app.inject({ method: 'DELETE', url: `/api/library/${id}`, headers: staff });

describe('featured sermons and the library are one store', () => {
  it('a sermon uploaded in the Content tab is a library item, kept while its featured item plays it', async () => {
    const body = multipartBody('audio', 'Prodigal Son.mp3', 'audio/mpeg', sermon);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-audio',
      headers: { ...staff, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { audioUrl } = res.json<{ audioUrl: string }>();
    const [item] = await settledLibrary(t.app, staff, 1);
    expect(item).toMatchObject({
      kind: 'sermon',
      title: 'Prodigal Son',
      original_name: 'Prodigal Son.mp3',
      format: 'mp3',
      status: 'ready',
      size_bytes: sermon.length,
    });

    const featured = await feature(audioUrl);
    expect(featured.statusCode).toBe(201);
    const refused = await remove(item!.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: mediaInUse('The Prodigal Son') });
    expect((await t.app.inject({ url: audioUrl })).statusCode).toBe(200);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/featured-content/${featured.json().id}`,
      headers: staff,
    });
    expect((await remove(item!.id)).statusCode).toBe(200);
    expect((await t.app.inject({ url: audioUrl })).statusCode).toBe(404);
  });

  it('a library item can be a featured sermon: listeners play it, and the podcast carries it', async () => {
    const upload = await uploadMedia(t.app, staff, sermon, 'Pentecost.mp3');
    const item = upload.json<MediaItem>();
    const featured = await feature(libraryAudioUrl(item.id));
    expect(featured.statusCode, featured.body).toBe(201);
    const listed = await t.app.inject({ url: '/api/featured-content' });
    expect(listed.json()[0]).toMatchObject({ title: 'The Prodigal Son', audioUrl: `/media/${item.id}` });

    const played = await t.app.inject({ url: `/media/${item.id}` });
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/mpeg');
    expect(played.rawPayload.equals(sermon)).toBe(true);

    const feed = (await t.app.inject({ url: '/podcast.xml' })).body;
    expect(feed).toContain(`/media/${item.id}" length="${sermon.length}" type="audio/mpeg"/>`);
  });

  it('a featured item may not point at other addresses of the station', async () => {
    for (const audioUrl of ['/media/../uploads/x.mp3', '/api/library/x/audio', '/media/a b'])
      expect((await feature(audioUrl)).statusCode).toBe(400);
  });
});
