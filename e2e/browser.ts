import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/** A page that fails the spec on any uncaught page error or console error. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 404 page load is reported by Chromium as a console error; the spec checks the status itself.
    if (message.type() === 'error' && !/status of 404/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

/** Opens a page of the station and waits until React has taken it over (`<html data-ready>`). */
export async function visit(page: Page, url: string) {
  const response = await page.goto(url);
  await page.locator('html[data-ready]').waitFor({ state: 'attached' });
  return response;
}

/** Scrolls to a section of the home page and waits until its code runs (it loads as it comes near). */
export async function showSection(page: Page, name: string) {
  const section = page.locator(`[data-section="${name}"]`);
  await section.scrollIntoViewIfNeeded();
  await page.locator(`[data-section="${name}"][data-loaded]`).waitFor({ state: 'attached' });
  return section;
}
