import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';

const base = inject('stationUrl');

/** Seconds of audio the player holds past its play head. */
const bufferedAhead = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-station-player]')!;
    const { buffered, currentTime } = audio;
    return buffered.length ? buffered.end(buffered.length - 1) - currentTime : 0;
  });

const connectionLabel = (page: Page) =>
  page.getByRole('region', { name: 'Live player' }).getByRole('status').textContent();

/**
 * Plays the station and reports the audio held ahead the moment playback starts. `latencyMs` slows every
 * request of the page, as a weak phone connection does: the player measures it and picks its quality.
 */
async function bufferAtStart(browser: Browser, latencyMs: number, label: string) {
  const { page, context, problems } = await openPage(browser);
  if (latencyMs) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: latencyMs,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  await visit(page, base);
  await expect.poll(() => connectionLabel(page), { timeout: 15_000 }).toBe(label);
  await page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-station-player]')!;
    const w = window as unknown as { heldAtStart?: number };
    audio.addEventListener(
      'playing',
      () => {
        w.heldAtStart = audio.buffered.length ? audio.buffered.end(0) - audio.currentTime : 0;
      },
      { once: true },
    );
  });
  await page.getByRole('button', { name: 'Turn On' }).click();
  await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
  const held = await page.evaluate(() => (window as unknown as { heldAtStart?: number }).heldAtStart ?? 0);
  const stillHeld = await bufferedAhead(page);
  await context.close();
  return { held, stillHeld, problems };
}

describe("the player's buffer follows its connection quality (SPEC.md section 9)", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('holds at least 2 s on a fast line and starts at once', async () => {
    const { held, problems } = await bufferAtStart(browser, 0, 'High Speed');
    expect(held).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  });

  it('holds 15 s before it starts on a poor line (over 200 ms away)', { timeout: 90_000 }, async () => {
    const { held, stillHeld, problems } = await bufferAtStart(browser, 300, 'Slow Connection');
    expect(held).toBeGreaterThanOrEqual(14.5);
    expect(stillHeld).toBeGreaterThanOrEqual(14);
    expect(problems).toEqual([]);
  });
});
