import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUDIO_SETTINGS } from '../src/common/audio-settings';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';

const KEY = 'e2e-captioning-feed-key';
/** Length of the shipped test transmission, which the AutoDJ loops. */
const TRANSMISSION_SECONDS = 34.612;
const CROSSFADE_SECONDS = DEFAULT_AUDIO_SETTINGS.crossfade_seconds;

interface VttCue {
  start: number;
  text: string;
}
const seconds = (stamp: string) => {
  const [h, m, s] = stamp.split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
};
function cuesOf(language: string): VttCue[] {
  const source = readFileSync(`src/server/radio/assets/test-transmission.${language}.vtt`, 'utf8');
  return source
    .split(/\n\n+/)
    .map((block) => /(\d+:\d+:[\d.]+) --> [\d:.]+\n([\s\S]+)/.exec(block))
    .filter((m) => m !== null)
    .map((m) => ({ start: seconds(m[1]!), text: m[2]!.trim() }));
}
/** SPEC.md's overlay rule applied to the VTT: the latest cue begun by `position`, at most 6 s ago. */
function cueAt(cues: VttCue[], position: number): string | null {
  const begun = cues.filter((c) => c.start <= position);
  const last = begun[begun.length - 1];
  return last && position - last.start <= 6 ? last.text : null;
}

let station: RunningStation;
let browser: Browser;
beforeAll(async () => {
  station = await startStation({ SUBTITLE_INGEST_KEY: KEY });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
});

const overlay = (page: Page) => page.getByTestId('subtitle-overlay');

async function listener(language: string | null) {
  const opened = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await opened.context.addInitScript(
    ([lang]) => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('subtitles-enabled', 'true');
      if (lang) localStorage.setItem('subtitles-language', lang);
    },
    [language],
  );
  await visit(opened.page, station.url);
  await opened.page.getByRole('button', { name: 'Turn On' }).click();
  await opened.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
  return opened;
}

/**
 * One look at what a listener's overlay shows and hears, checked against the VTT: the line on screen is
 * the cue of that language for the second being played, give or take 1 s.
 */
async function expectInSync(page: Page, cues: VttCue[]) {
  const { heard, text } = await page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-testid="subtitle-overlay"]');
    const line = document.querySelector<HTMLElement>('[data-testid="subtitle-line"]');
    return { heard: Number(root?.dataset.heard ?? NaN), text: line?.textContent ?? null };
  });
  const { current_track } = (await (await fetch(`${station.url}/api/radio/current`)).json()) as {
    current_track: { started_at: number };
  };
  // A listener a few seconds behind may still hear the loop before the one on the air now; loops follow each
  // other crossfaded (closer than the file's length), so that moment is only placed within the loop on air.
  if (heard < current_track.started_at) return undefined;
  const position = (heard - current_track.started_at) % TRANSMISSION_SECONDS;
  // In the last seconds the next loop fades in over this one and its title is heard: its lines take over.
  if (position > TRANSMISSION_SECONDS - CROSSFADE_SECONDS - 1) return undefined;
  const allowed = new Set([cueAt(cues, position - 1), cueAt(cues, position), cueAt(cues, position + 1)]);
  // In the first seconds the loop before's last line is still within its 6 s: that loop began a file's length
  // less the crossfade earlier.
  const inPrevious = position + TRANSMISSION_SECONDS - CROSSFADE_SECONDS;
  if (inPrevious - 1 <= TRANSMISSION_SECONDS) {
    for (const at of [inPrevious - 1, inPrevious, inPrevious + 1]) allowed.add(cueAt(cues, at));
  }
  expect(Number.isFinite(heard)).toBe(true);
  expect(allowed, `heard ${heard.toFixed(2)} (${position.toFixed(2)} s into the file)`).toContain(text);
  return text;
}

/** Samples until `count` lines have been seen in sync. */
async function expectLinesInSync(page: Page, language: string, count = 2) {
  const cues = cuesOf(language);
  const seen = new Set<string>();
  const deadline = Date.now() + 60_000;
  while (seen.size < count && Date.now() < deadline) {
    const text = await expectInSync(page, cues);
    if (text) seen.add(text);
    else if (text === undefined) await page.waitForTimeout(600);
    await page.waitForTimeout(400);
  }
  expect(seen.size).toBeGreaterThanOrEqual(count);
}

describe('subtitles', () => {
  it('two listeners started at different moments each see the French line for the second they hear; a switch to Spanish follows; settings survive a reload', async () => {
    const first = await listener('fr');
    await first.page.waitForTimeout(3_000);
    const second = await listener('fr');
    await expectLinesInSync(first.page, 'fr');
    await expectLinesInSync(second.page, 'fr');

    // Changing the language switches the lines; font size and position are saved with it.
    const page = second.page;
    await page.getByRole('button', { name: 'Subtitle settings' }).click();
    await page.getByLabel('Language').selectOption('es');
    await page.getByLabel('Font size').selectOption('large');
    await page.getByLabel('Position').selectOption('top');
    await expectLinesInSync(page, 'es');
    expect(await overlay(page).getAttribute('data-position')).toBe('top');

    await page.reload();
    await page.getByRole('button', { name: 'Turn On' }).click();
    await page.getByRole('button', { name: 'Subtitle settings' }).click();
    expect(await page.getByLabel('Language').inputValue()).toBe('es');
    expect(await page.getByLabel('Font size').inputValue()).toBe('large');
    expect(await overlay(page).getAttribute('data-position')).toBe('top');
    await expectLinesInSync(page, 'es', 1);
    expect(await page.getByTestId('subtitle-line').getAttribute('data-font-size')).toBe('large');
    // Announced politely, and readable: white on near-black.
    expect(await page.locator('[aria-live="polite"][aria-atomic="true"]').count()).toBeGreaterThan(0);

    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
    await first.context.close();
    await second.context.close();
  }, 180_000);

  it('a language with no lines shows the notice, and a live caption typed in the Captions tab reaches the listener', async () => {
    const korean = await listener('ko');
    await korean.page.getByText('No subtitles available in Korean').waitFor();

    const staff = await openPage(browser);
    await visit(staff.page, `${station.url}/dashboard-mgmt`);
    await staff.page.getByLabel('Username').fill(E2E_ADMIN.username);
    await staff.page.getByLabel('Password').fill(E2E_ADMIN.password);
    await staff.page.getByRole('button', { name: 'Sign In' }).click();
    await staff.page.getByRole('tab', { name: 'Captions' }).click();
    await staff.page.getByLabel('Language').selectOption('ko');
    await staff.page.getByLabel('Speaker (optional)').fill('목사님');
    await staff.page.getByLabel('Line', { exact: true }).fill('평화가 함께 하기를');
    await staff.page.getByRole('button', { name: 'Send line' }).click();
    await staff.page.getByTestId('captions-sent').getByText('평화가 함께 하기를').waitFor();

    const line = korean.page.getByTestId('subtitle-line');
    await line.getByText('평화가 함께 하기를').waitFor({ timeout: 20_000 });
    expect(await line.textContent()).toContain('목사님');

    // The captioner corrects the last line; the listener's line follows.
    await staff.page.getByRole('button', { name: 'Correct last line' }).click();
    await staff.page.getByLabel('Corrected line', { exact: true }).fill('주의 평화가 함께 하기를');
    await staff.page.getByRole('button', { name: 'Send correction' }).click();
    await line.getByText('주의 평화가 함께 하기를').waitFor({ timeout: 20_000 });

    expect(korean.problems).toEqual([]);
    expect(staff.problems).toEqual([]);
    await korean.context.close();
    await staff.context.close();
  }, 120_000);

  it('refuses bad captions with a clear 4xx and stores nothing', async () => {
    const post = (body: unknown, headers: Record<string, string> = { 'x-ingest-key': KEY }) =>
      fetch(`${station.url}/api/subtitles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const count = async (language: string) =>
      ((await (await fetch(`${station.url}/api/subtitles/${language}`)).json()) as unknown[]).length;
    const before = await count('hi');
    const good = { text: 'शांति', language: 'hi' };
    const cases: [unknown, Record<string, string>, number, RegExp][] = [
      [good, {}, 401, /X-Ingest-Key/],
      [good, { 'x-ingest-key': 'wrong' }, 401, /not valid/],
      [{ ...good, text: '' }, { 'x-ingest-key': KEY }, 400, /must not be empty/],
      [{ ...good, language: 'Hindi' }, { 'x-ingest-key': KEY }, 400, /language code/],
      [{ ...good, text: 'श'.repeat(1001) }, { 'x-ingest-key': KEY }, 400, /at most 1000/],
      [{ ...good, timestamp: 10_000_000 }, { 'x-ingest-key': KEY }, 400, /ahead of the stream clock/],
      [{ ...good, timestamp: -600 }, { 'x-ingest-key': KEY }, 400, /stream-clock second/],
    ];
    for (const [body, headers, status, message] of cases) {
      const res = await post(body, headers);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    expect(await count('hi')).toBe(before);
    const ok = await post(good);
    expect(ok.status).toBe(201);
    expect(await count('hi')).toBe(before + 1);
  });
});
