import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
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

  it('staff add a sermon with a picture and a recording, the form empties; an edit changes every field', async () => {
    const { page, context, problems } = await openPage(browser);
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const add = page.getByRole('form', { name: 'Add featured content' });
    await add.waitFor();

    const picture = (background: string) =>
      sharp({ create: { width: 96, height: 64, channels: 3, background } })
        .png()
        .toBuffer();
    await add
      .getByLabel('Image')
      .setInputFiles({ name: 'well.png', mimeType: 'image/png', buffer: await picture('#1e3a8a') });
    await toast(page, 'Image uploaded successfully!').waitFor();
    const mp3 = await makeMp3(path.join(work, 'samaritan.mp3'), { seconds: 12, bitrate: '64k' });
    await add
      .getByLabel('Sermon audio')
      .setInputFiles({ name: 'samaritan.mp3', mimeType: 'audio/mpeg', buffer: readFileSync(mp3) });
    await toast(page, 'Audio uploaded successfully!').waitFor();
    expect(await add.getByLabel('Duration').inputValue()).toBe('0:12');
    await add.getByLabel('Title', { exact: true }).fill('The Good Samaritan');
    await add.getByLabel('Speaker').fill('Pastor Ruth');
    await add.getByLabel('Description').fill('Luke 10, who is my neighbour.');
    await add.getByRole('button', { name: 'Add Content' }).click();
    await toast(page, 'Content added successfully').waitFor();

    // Every field is empty again, the picture and the recording too, and says so.
    for (const label of ['Title', 'Speaker', 'Duration', 'Description'])
      expect(await add.getByLabel(label, { exact: true }).inputValue(), label).toBe('');
    await add.getByText('No image', { exact: true }).waitFor();
    await add.getByText('No audio', { exact: true }).waitFor();
    expect(await add.getByAltText('Uploaded image preview').count()).toBe(0);
    if (SHOTS) await add.screenshot({ path: `${SHOTS}/content-form-after-add.png` });

    const row = page.getByTestId('content-row').filter({ hasText: 'The Good Samaritan' });
    await row.getByText('Pastor Ruth · 0:12 · with audio').waitFor();
    const firstImage = (await row.locator('img').getAttribute('src'))!;
    await row.getByRole('button', { name: 'Edit The Good Samaritan' }).click();
    const edit = page.getByRole('form', { name: 'Edit The Good Samaritan' });
    expect(await edit.getByLabel('Speaker').inputValue()).toBe('Pastor Ruth');
    expect(await edit.getByAltText('Uploaded image preview').getAttribute('src')).toBe(firstImage);
    await edit.getByLabel('Speaker').fill('Deacon Samuel');
    await edit.getByLabel('Duration').fill('45:00');
    await edit
      .getByLabel('Image')
      .setInputFiles({ name: 'road.png', mimeType: 'image/png', buffer: await picture('#b45309') });
    await expect
      .poll(() => edit.getByAltText('Uploaded image preview').getAttribute('src'))
      .not.toBe(firstImage);
    const secondImage = (await edit.getByAltText('Uploaded image preview').getAttribute('src'))!;
    await edit.getByRole('button', { name: 'Remove audio' }).click();
    await edit.getByText('No audio', { exact: true }).waitFor();
    if (SHOTS) await edit.screenshot({ path: `${SHOTS}/content-form-edit.png` });
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Content updated successfully').waitFor();
    await row.getByText('Deacon Samuel · 45:00').waitFor();
    expect(await row.locator('img').getAttribute('src')).toBe(secondImage);
    // The replaced picture is gone from the station; the new one is served.
    expect((await fetch(station.url + firstImage)).status).toBe(404);
    expect((await fetch(station.url + secondImage)).status).toBe(200);
    expect(problems).toEqual([]);
    await context.close();

    const listener = await openPage(browser);
    await visit(listener.page, station.url);
    // The innermost box holding both the title and a picture: the card.
    const card = listener.page
      .locator('article, div')
      .filter({ has: listener.page.getByRole('heading', { name: 'The Good Samaritan' }) })
      .filter({ has: listener.page.locator('img') })
      .last();
    await card.scrollIntoViewIfNeeded();
    await card.getByText('Deacon Samuel', { exact: true }).waitFor();
    await card.getByText('45:00', { exact: true }).waitFor();
    expect(await card.locator('img').getAttribute('src')).toBe(secondImage);
    expect(await card.getByRole('button', { name: /^Play / }).count()).toBe(0);
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/content-edited-card.png` });
    expect(listener.problems).toEqual([]);
    await listener.context.close();
  });
});
