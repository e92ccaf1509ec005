import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { spokenMp3 } from '../src/server/features/speech/spoken';
import { axeViolations } from './axe';
import { openPage, showSection, visit } from './browser';
import { E2E_ADMIN, ownBrowserAndStation } from './station';

const SERMON =
  'Today we read from the book of Psalms. The Lord is my shepherd, I shall not want. He maketh me to lie down in green pastures.';
const CORRECTED = 'Today we read from Psalm twenty three.';

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

describe('transcripts of recordings in Chromium', () => {
  // Captions from speech are turned on here: a station of this file's own.
  const own = ownBrowserAndStation();

  it('staff turn captions from speech on and add a spoken sermon; its transcript is made, a line corrected, and a listener reads the correction beside the sermon and in its .vtt', async () => {
    // A retry adds its own sermon to the same station: each attempt finds its own row.
    const stamp = Date.now();
    const file = `psalm-23-${stamp}.mp3`;
    const title = `The Good Shepherd ${stamp}`;
    const { page, context, problems } = await openPage(own.browser);
    await visit(page, `${own.station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await page.getByRole('tab', { name: 'Captions' }).click();
    const captionsOn = page.getByRole('switch', { name: "Caption the station's speech" });
    // Shown once the settings are read; a retry finds them on already.
    if ((await captionsOn.getAttribute('aria-checked')) !== 'true') {
      await captionsOn.click();
      await expect.poll(() => captionsOn.getAttribute('aria-checked')).toBe('true');
    }

    await page.getByRole('tab', { name: 'Content' }).click();
    const add = page.getByRole('form', { name: 'Add featured content' });
    await add
      .getByLabel('Sermon audio')
      .setInputFiles({ name: file, mimeType: 'audio/mpeg', buffer: await spokenMp3(SERMON) });
    await toast(page, 'Audio uploaded successfully!').waitFor();
    await add.getByLabel('Title', { exact: true }).fill(title);
    await add.getByLabel('Description').fill('Psalm 23, read aloud.');
    await add.getByRole('button', { name: 'Add Content' }).click();
    await toast(page, 'Content added successfully').waitFor();

    // The uploaded sermon is a library item; its transcript opens from its row.
    await page.getByRole('tab', { name: 'Library' }).click();
    const row = page.getByTestId('media-row').filter({ hasText: file });
    await row.getByRole('button', { name: /^Transcript of / }).click();
    const dialog = page.getByRole('dialog', { name: /^Transcript: / });
    const state = dialog.getByTestId('transcript-state');
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toMatch(/^(Waiting|In progress|Done)/);
    await expect.poll(() => state.textContent(), { timeout: 120_000, interval: 1000 }).toMatch(/^Done/);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    const first = dialog.getByTestId('transcript-lines').getByRole('textbox').first();
    const recognised = await first.inputValue();
    expect(recognised.length).toBeGreaterThan(0);
    await first.fill(CORRECTED);
    await dialog.getByRole('button', { name: 'Save corrections' }).click();
    await dialog.getByText(/^Saved: listeners and podcast apps now get the corrected transcript/).waitFor();
    expect(await state.textContent()).toContain('corrected by staff');
    // The sermon's row in the Content tab opens it too, now that it is done.
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Content' }).click();
    await page.getByRole('button', { name: `Transcript of ${title}` }).click();
    await expect.poll(() => dialog.getByRole('textbox').first().inputValue()).toBe(CORRECTED);
    await page.keyboard.press('Escape');
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await context.close();

    // A listener: the sermon offers its transcript, with the correction; the .vtt carries it too.
    const listener = await openPage(own.browser);
    await visit(listener.page, own.station.url);
    await showSection(listener.page, 'featured');
    const transcriptToggle = listener.page.getByText(`Read the transcript of ${title}`);
    await transcriptToggle.click();
    const shown = listener.page.getByTestId('sermon-transcript');
    await shown.getByText(CORRECTED, { exact: false }).waitFor();
    expect(await axeViolations(listener.page, '[data-section="featured"]')).toEqual([]);
    const vttUrl = await shown.getByRole('link', { name: 'Download it (WebVTT)' }).getAttribute('href');
    const vtt = await fetch(`${own.station.url}${vttUrl}`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    const body = await vtt.text();
    expect(body).toMatch(new RegExp(`^WEBVTT\\n\\n[\\d:.]+ --> [\\d:.]+\\n${CORRECTED}\\n`));
    expect(listener.problems).toEqual([]);
    await listener.context.close();
  }, 240_000);
});
