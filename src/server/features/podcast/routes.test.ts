import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMp3 } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
const work = mkdtempSync(path.join(os.tmpdir(), 'podcast-'));

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'preacher', 'admin')).headers;
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

async function uploadMp3(seconds: number) {
  const file = await makeMp3(path.join(work, `${seconds}.mp3`), { seconds, bitrate: '64k' });
  const body = multipartBody('audio', 'sermon.mp3', 'audio/mpeg', readFileSync(file));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/upload-audio',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
  return res.json() as { audioUrl: string; size: number };
}

const add = (item: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/featured-content', headers: staff, payload: item });

describe('GET /podcast.xml', () => {
  it('is RSS 2.0 with the iTunes tags, listing the sermons that carry audio, newest first', async () => {
    const first = await uploadMp3(3);
    const second = await uploadMp3(65);
    expect(
      (
        await add({
          title: 'Grace & Truth',
          description: 'John 1 <part 1>',
          type: 'sermon',
          audioUrl: first.audioUrl,
          speaker: 'Pastor Ruth',
        })
      ).statusCode,
    ).toBe(201);
    await add({
      title: 'Morning devotion',
      description: 'Psalm 5',
      type: 'devotion',
      audioUrl: first.audioUrl,
    });
    await add({ title: 'No audio yet', description: 'Coming soon', type: 'sermon' });
    await add({
      title: 'The Good Shepherd',
      description: 'John 10',
      type: 'sermon',
      audioUrl: second.audioUrl,
    });

    const res = await t.app.inject({ url: '/podcast.xml', headers: { host: 'radio.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const doc = new JSDOM(res.body, { contentType: 'application/xml' }).window.document;
    expect(doc.documentElement.getAttribute('version')).toBe('2.0');
    const channel = doc.querySelector('channel')!;
    expect(channel.querySelector('title')?.textContent).toBe('Grace Live Radio Sermons');
    const tag = (el: Element, name: string) => el.getElementsByTagName(name)[0];
    expect(tag(channel, 'itunes:image')?.getAttribute('href')).toBe(
      'http://radio.example/icons/icon-512.png',
    );
    expect(tag(channel, 'itunes:category')?.getAttribute('text')).toBe('Religion & Spirituality');
    expect(tag(channel, 'itunes:explicit')?.textContent).toBe('false');

    const items = [...doc.querySelectorAll('item')];
    expect(items.map((i) => i.querySelector('title')?.textContent)).toEqual([
      'The Good Shepherd',
      'Grace & Truth',
    ]);
    const [shepherd, grace] = items;
    const enclosure = shepherd!.querySelector('enclosure')!;
    expect(enclosure.getAttribute('url')).toBe(`http://radio.example${second.audioUrl}`);
    expect(Number(enclosure.getAttribute('length'))).toBe(second.size);
    expect(enclosure.getAttribute('type')).toBe('audio/mpeg');
    expect(tag(shepherd!, 'itunes:duration')?.textContent).toBe('0:01:05');
    expect(grace!.querySelector('description')?.textContent).toBe('John 1 <part 1>');
    expect(tag(grace!, 'itunes:author')?.textContent).toBe('Pastor Ruth');
    expect(new Date(grace!.querySelector('pubDate')!.textContent!).getTime()).not.toBeNaN();

    // The enclosure downloads, whole, with the length the feed announced.
    const audio = await t.app.inject({ url: second.audioUrl });
    expect(audio.rawPayload.length).toBe(second.size);
  });
});
