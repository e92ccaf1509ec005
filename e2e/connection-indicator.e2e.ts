import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, showSection } from './browser';

const base = inject('stationUrl');

/** The indicator's words as a visitor sees them (innerText leaves out the badge the page hides). */
const shown = (page: Page) =>
  page.getByRole('region', { name: 'Live player' }).getByRole('status').innerText();

/** Requests matching `url` wait until `release` is called: what a slow phone or a hung line does to them. */
async function holdBack(page: Page, url: RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const waiting = async (route: Route) => {
    await released;
    await route.continue().catch(() => {}); // the page may be gone by then
  };
  await page.route(url, waiting);
  return async () => {
    release();
    await page.unroute(url, waiting);
  };
}

// Requests cut off while the browser is offline are expected (the service worker's script among them).
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/net::ERR_|WebSocket|error occurred when fetching the script/.test(p));

describe('the connection indicator on a busy machine', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('appears with the player and follows offline and online at once: before React takes the page over, while a probe hangs, while sections load', async () => {
    const { page, context, problems } = await openPage(browser);
    // A phone (or a machine busy with other work) ten times slower than this one.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 10 });
    // React's renderer arrives late, as it does on such a phone: the page is still the served HTML.
    const releaseReact = await holdBack(page, /\/assets\/react-dom-[\w-]+\.js$/);
    await page.goto(base, { waitUntil: 'commit' });

    await page.getByRole('button', { name: 'Turn On' }).waitFor();
    expect(await shown(page)).toMatch(/^(High Speed|Slow Connection)$/);
    await context.setOffline(true);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toBe('Offline');
    await context.setOffline(false);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toBe('Slow Connection');
    expect(await page.locator('html[data-ready]').count()).toBe(0);

    // Taken over by React; now every probe of the line hangs.
    const releaseProbes = await holdBack(page, /\/api\/radio\/stream-url$/);
    await releaseReact();
    await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 60_000 });
    const before = await shown(page);
    expect(before).toMatch(/^(High Speed|Slow Connection)$/);
    await context.setOffline(true);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toBe('Offline');
    await context.setOffline(false);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toBe(before);
    // The sections' code, cut off on its way by the outage, arrives once back: the page was never taken down.
    for (const name of ['programs', 'featured']) await showSection(page, name);

    // The probes answer: the indicator says what they found.
    await releaseProbes();
    await expect.poll(() => shown(page), { timeout: 20_000 }).toMatch(/^(High Speed|Slow Connection)$/);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 120_000);
});
