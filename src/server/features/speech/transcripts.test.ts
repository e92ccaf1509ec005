import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeaturedItem } from '../../../common/featured-content.js';
import type { Transcript } from '../../../common/speech.js';
import { parseVtt } from '../../radio/vtt.js';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';
import { spokenMp3 } from './spoken.js';
import { wordErrorRate } from './word-error-rate.js';

const SERMON =
  'Today we read from the book of Psalms. The Lord is my shepherd, I shall not want. He maketh me to lie down in green pastures.';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'transcripts-'));
let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir }, { transcribeEveryMs: 200 });
  staff = (await addStaff(t.db, 'pastor', 'admin')).headers;
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
};

describe('transcripts of recordings', () => {
  let mediaId = '';
  let audioUrl = '';

  it('an uploaded sermon gets a transcript in the background once captions from speech are on', async () => {
    const mp3 = await spokenMp3(SERMON, 0.5);
    const body = multipartBody('audio', 'sermon.mp3', 'audio/mpeg', mp3);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/upload-audio',
      headers: { ...staff, ...body.headers },
      payload: body.payload,
    });
    expect(upload.statusCode).toBe(201);
    audioUrl = upload.json<{ audioUrl: string }>().audioUrl;
    const items = await t.db.query.mediaItems.findMany();
    mediaId = items.find((i) => i.path === `uploads/${path.basename(audioUrl)}`)!.id;
    const read = () => t.app.inject({ url: `/api/speech/transcripts/${mediaId}`, headers: staff });
    // Off by default: nothing is transcribed.
    expect((await read()).statusCode).toBe(404);
    await t.app.inject({
      method: 'PUT',
      url: '/api/speech/settings',
      headers: staff,
      payload: { enabled: true, programmeIds: [], wordList: [] },
    });
    await until(async () => (await read()).json<Transcript>().status === 'ready');
    const transcript = (await read()).json<Transcript>();
    expect(transcript).toMatchObject({ engine: 'pocketsphinx', language: 'en', edited: false, error: null });
    const text = transcript.cues.map((c) => c.text).join(' ');
    expect(wordErrorRate(SERMON, text), text).toBeLessThan(0.6);
    // Timed from the file's start: after its half second of silence, within its length.
    expect(transcript.cues[0]!.start).toBeGreaterThan(0.3);
    for (let i = 1; i < transcript.cues.length; i++) {
      expect(transcript.cues[i]!.start).toBeGreaterThanOrEqual(transcript.cues[i - 1]!.end - 0.01);
    }
  }, 120_000);

  it('staff correct it; the .vtt and the podcast carry the corrected words', async () => {
    const cues = [
      { text: 'Today we read from the book of Psalms.', start: 0.5, end: 3.2 },
      { text: 'The Lord is my shepherd, I shall not want.', start: 3.4, end: 6.4 },
    ];
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/speech/transcripts/${mediaId}`,
      headers: staff,
      payload: { cues },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<Transcript>()).toMatchObject({ edited: true, cues });
    const vtt = await t.app.inject({ url: `/api/speech/transcripts/${mediaId}/transcript.vtt` });
    expect(vtt.headers['content-type']).toContain('text/vtt');
    expect(parseVtt(vtt.body).map((c) => [c.start, c.end, c.text])).toEqual(
      cues.map((c) => [c.start, c.end, c.text]),
    );

    const featured = await t.app.inject({
      method: 'POST',
      url: '/api/featured-content',
      headers: staff,
      payload: { title: 'The Good Shepherd', description: 'Psalm 23', type: 'sermon', audioUrl },
    });
    expect(featured.statusCode, featured.body).toBe(201);
    // Listeners are offered it beside the sermon, by either of its addresses; other items offer none.
    for (const payload of [
      {
        title: 'Psalm 23 again',
        description: 'The library address',
        type: 'devotion',
        audioUrl: `/media/${mediaId}`,
      },
      {
        title: 'Elsewhere',
        description: 'Audio on another site',
        type: 'sermon',
        audioUrl: 'https://example.org/a.mp3',
      },
      { title: 'No audio', description: 'Words only', type: 'sermon' },
    ]) {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/featured-content',
        headers: staff,
        payload,
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const listed = (await t.app.inject({ url: '/api/featured-content' })).json<FeaturedItem[]>();
    expect(Object.fromEntries(listed.map((item) => [item.title, item.transcriptUrl]))).toEqual({
      'The Good Shepherd': `/api/speech/transcripts/${mediaId}/transcript.vtt`,
      'Psalm 23 again': `/api/speech/transcripts/${mediaId}/transcript.vtt`,
      Elsewhere: undefined,
      'No audio': undefined,
    });
    const feed = await t.app.inject({ url: '/podcast.xml' });
    expect(feed.body).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
    expect(feed.body).toMatch(
      new RegExp(
        `<podcast:transcript url="http[^"]+/api/speech/transcripts/${mediaId}/transcript\\.vtt" type="text/vtt" language="en" rel="captions"/>`,
      ),
    );
  });

  it('answers bad edits and unknown items with a 4xx, never a 5xx', async () => {
    const put = (id: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/speech/transcripts/${id}`,
        headers: staff,
        payload: payload as object,
      });
    expect(
      (
        await put(mediaId, {
          cues: [
            { text: 'b', start: 5, end: 6 },
            { text: 'a', start: 1, end: 2 },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect((await put(mediaId, { cues: [{ text: 'a', start: 5, end: 4 }] })).statusCode).toBe(400);
    expect((await put('no-such-item', { cues: [] })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/speech/transcripts/no-such-item/transcript.vtt' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/speech/transcripts/${mediaId}` })).statusCode).toBe(401);
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (body) => {
        const code = (await put(mediaId, body)).statusCode;
        expect(code === 200 || (code >= 400 && code < 500)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe('a transcript made again', () => {
  it('drops the corrections, offers listeners none until the new one is done, and refuses unknown items', async () => {
    const [item] = await t.db.query.transcripts.findMany();
    const mediaId = item!.mediaItemId;
    const redo = (id: string) =>
      t.app.inject({ method: 'POST', url: `/api/speech/transcripts/${id}/redo`, headers: staff });
    expect((await redo('no-such-item')).statusCode).toBe(404);
    expect((await redo('not an id!')).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/speech/transcripts/${mediaId}/redo` })).statusCode,
    ).toBe(401);
    expect((await redo(mediaId)).statusCode).toBe(202);
    const listed = (await t.app.inject({ url: '/api/featured-content' })).json<FeaturedItem[]>();
    expect(listed.filter((i) => i.transcriptUrl)).toEqual([]);
    const read = () => t.app.inject({ url: `/api/speech/transcripts/${mediaId}`, headers: staff });
    await until(async () => (await read()).json<Transcript>().status === 'ready');
    expect((await read()).json<Transcript>().edited).toBe(false);
  }, 120_000);
});
