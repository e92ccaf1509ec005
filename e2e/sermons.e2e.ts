import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMp3 } from '../src/server/radio/test-audio';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';

const SHOTS = process.env.E2E_SCREENSHOTS;
const work = mkdtempSync(path.join(tmpdir(), 'sermon-e2e-'));
let station: RunningStation;
let browser: Browser;

beforeAll(async () => {
  station = await startStation();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
  rmSync(work, { recursive: true, force: true });
});

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

describe('sermons on demand and the podcast in Chromium', () => {
  it('staff attach an MP3 to a sermon; a listener plays it and the count rises; the podcast lists it', async () => {
    const { page, context, problems } = await openPage(browser);
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: /Admin Panel$/ }).waitFor();

    // A text file renamed .mp3 is refused by what it is.
    await page.getByLabel('Sermon audio').setInputFiles({
      name: 'notes.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('These are my sermon notes, not a recording.\n'.repeat(40)),
    });
    await toast(page, 'Please upload an MP3 or M4A audio file').waitFor();

    const mp3 = await makeMp3(path.join(work, 'sermon.mp3'), { seconds: 12, bitrate: '64k' });
    await page
      .getByLabel('Sermon audio')
      .setInputFiles({ name: 'sermon.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(mp3) });
    await toast(page, 'Audio uploaded successfully!').waitFor();
    await page.getByLabel('Title', { exact: true }).fill('The Prodigal Son');
    await page.getByLabel('Description').fill('Luke 15, the father who runs.');
    await page.getByRole('button', { name: 'Add Content' }).click();
    await toast(page, 'Content added successfully').waitFor();
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await context.close();

    const listener = await openPage(browser);
    await visit(listener.page, station.url);
    const card = listener.page
      .locator('article, div')
      .filter({ has: listener.page.getByRole('heading', { name: 'The Prodigal Son' }) })
      .last();
    await card.scrollIntoViewIfNeeded();
    await card.getByText('0:12').waitFor();
    await card.getByText('0 plays').waitFor();
    // The live stream is on; the sermon pauses it while it plays, and it comes back after.
    await listener.page.getByRole('button', { name: 'Turn On' }).click();
    await listener.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    await listener.page.getByRole('button', { name: 'Play The Prodigal Son' }).click();
    await listener.page.getByRole('button', { name: 'Pause The Prodigal Son' }).waitFor();
    await listener.page.getByRole('button', { name: 'Turn On' }).waitFor();
    await expect
      .poll(
        () =>
          listener.page.evaluate(
            () => document.querySelector<HTMLAudioElement>('audio[src^="/uploads/"]')?.currentTime ?? 0,
          ),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(1);
    await listener.page.getByRole('button', { name: 'Pause The Prodigal Son' }).click();
    await listener.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    // A pause and resume is the same listen: counted once.
    await listener.page.getByRole('button', { name: 'Play The Prodigal Son' }).click();
    await listener.page.getByRole('button', { name: 'Turn On' }).waitFor();
    await listener.page.getByRole('button', { name: 'Pause The Prodigal Son' }).click();
    await listener.page.reload();
    await listener.page.getByRole('heading', { name: 'The Prodigal Son' }).scrollIntoViewIfNeeded();
    await listener.page.getByText('1 play', { exact: true }).waitFor();
    if (SHOTS) await listener.page.screenshot({ path: `${SHOTS}/sermon-card.png` });
    expect(listener.problems).toEqual([]);
    await listener.context.close();

    const feed = await (await fetch(`${station.url}/podcast.xml`)).text();
    const doc = new JSDOM(feed, { contentType: 'application/xml' }).window.document;
    const item = [...doc.querySelectorAll('item')].find(
      (i) => i.querySelector('title')?.textContent === 'The Prodigal Son',
    );
    const enclosure = item!.querySelector('enclosure')!;
    const audio = await fetch(enclosure.getAttribute('url')!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toContain('audio/mpeg');
    expect((await audio.arrayBuffer()).byteLength).toBe(Number(enclosure.getAttribute('length')));
  });
});
