import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, showSection, visit } from './browser';

const base = inject('stationUrl');
const STATION = 'Grace Live Radio';
const NETWORK = 'https://example.org';

/** The page's code arrives late, as on a slow phone; the served HTML is there from the start. */
const delayStartupCode = (page: Page) =>
  page.route(/\/assets\/startup-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });

describe('the page shell in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows the header with title, network link and nav links, and no Install App without an offer', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, base);
    await expect.poll(() => page.getByRole('heading', { name: STATION, exact: true }).count()).toBe(1);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav
      .getByRole('link')
      .evaluateAll((els) =>
        els.map((a) => [
          a.textContent?.replace('(opens in a new tab)', '').trim(),
          a.getAttribute('href'),
          a.getAttribute('target'),
        ]),
      );
    expect(links).toEqual([
      ['Home', '/', null],
      ['Programs', '#programs', null],
      ['Prayer', '#prayer', null],
      [expect.any(String), `${NETWORK}/`, '_blank'],
    ]);
    expect(await page.getByRole('button', { name: 'Install App' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("serves the home page's first screen in its HTML, with the station's details, and takes it over cleanly", async () => {
    const html = await (await fetch(`${base}/`)).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    for (const text of [`>${STATION}</h1>`, 'Live Broadcasting Now', 'Turn On', 'Today&#x27;s Programs']) {
      expect(root).toContain(text);
    }
    expect(root).toContain(`href="${NETWORK}/about"`);
    expect(html).not.toMatch(/\{\{[A-Z_]+(:[^}]*)?\}\}/); // every token filled in

    const { page, context, problems } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await delayStartupCode(page);
    await page.goto(base, { waitUntil: 'commit' });
    const served = [
      await page.waitForSelector('h1', { state: 'attached' }),
      await page.waitForSelector('[aria-label="Turn On"]'),
    ];
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-ready'))).toBe(false);
    await page.locator('html[data-ready]').waitFor({ state: 'attached' });
    // React adopted the served elements: nothing shown before it took over was thrown away and drawn again.
    for (const element of served) expect(await element.evaluate((el) => el.isConnected)).toBe(true);
    await showSection(page, 'footer');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a section taken over after its data was prefetched matches the page as served, then shows the data', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    const prefetched = page.waitForResponse((response) => response.url().endsWith('/api/featured-content'));
    await visit(page, base);
    await prefetched; // SPEC.md section 4: 3 s after load, before the featured section came near the screen
    expect(await page.locator('[data-section="featured"][data-loaded]').count()).toBe(0);
    const featured = await showSection(page, 'featured');
    await featured.getByRole('heading', { level: 3 }).first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a tap on Turn On before the page is taken over is kept, and plays once it is', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await delayStartupCode(page);
    await page.goto(base, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Turn On' }).click();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-ready'))).toBe(false);
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sets the page metadata and carries the hidden descriptive text', async () => {
    const { page, context } = await openPage(browser);
    await visit(page, base);
    expect(await page.title()).toContain(STATION);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${base}/`);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain(STATION);
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/^http/);
    const hidden = page.getByText(`${STATION} is a live Christian internet radio ministry`);
    expect(await hidden.count()).toBeGreaterThan(0);
    await context.close();
  });

  it('starts the breadcrumb with the network link and highlights the last item, Radio Ministry', async () => {
    const { page, context } = await openPage(browser);
    await visit(page, base);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect.poll(() => crumbs.count()).toBe(1);
    const items = crumbs.locator('li:not([aria-hidden])');
    expect(await items.first().locator('a').getAttribute('href')).toBe(`${NETWORK}/`);
    const last = items.last();
    expect(await last.innerText()).toBe('Radio Ministry');
    expect(await last.locator('[aria-current="page"]').count()).toBe(1);
    await context.close();
  });

  it('shows the footer links and the 2025 copyright', async () => {
    const { page, context } = await openPage(browser);
    await visit(page, base);
    const footer = page.locator('footer');
    await expect.poll(() => footer.count()).toBe(1);
    const hrefOf = (name: string) => footer.getByRole('link', { name, exact: true }).getAttribute('href');
    expect(await hrefOf('Home')).toBe('/');
    expect(await hrefOf('Live Stream')).toBe('#');
    expect(await hrefOf('Programs')).toBe('#programs');
    expect(await hrefOf('Prayer Requests')).toBe('#prayer');
    expect(await footer.locator('a[href^="mailto:"]').count()).toBe(1);
    for (const path of ['about', 'ministries', 'contact', 'privacy', 'terms']) {
      expect(await footer.locator(`a[href="${NETWORK}/${path}"][target="_blank"]`).count()).toBe(1);
    }
    expect(await footer.innerText()).toContain('2025');
    await context.close();
  });

  it('toggles the mobile menu below 768 px and closes it when a link is chosen', async () => {
    const { page, context, problems } = await openPage(browser, {
      viewport: { width: 390, height: 800 },
      isMobile: true,
    });
    await visit(page, base);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await expect.poll(() => mobile.isVisible()).toBe(true);
    await mobile.getByRole('link', { name: 'Programs' }).click();
    await expect.poll(() => mobile.count()).toBe(0);
    expect(page.url()).toBe(`${base}/#programs`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect.poll(() => mobile.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a toast when the station's link is copied, one at a time", async () => {
    const { page, context } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await visit(page, base);
    const copy = page.getByRole('button', { name: 'Copy Link' });
    await copy.click();
    await copy.click();
    // Radix keeps a hidden screen-reader copy of a toast's text for a moment: count the open toasts.
    const open = page.locator('li[data-state="open"]');
    await expect.poll(() => open.filter({ hasText: 'Link copied!' }).count()).toBe(1);
    expect(await open.count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/`);
    await context.close();
  });

  it('shows Page Not Found with a way home on an unknown page', async () => {
    const { page, context } = await openPage(browser);
    const response = await visit(page, `${base}/sermons/old`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByText('Page Not Found').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /home/i }).count()).toBeGreaterThan(0);
    await context.close();
  });
});
