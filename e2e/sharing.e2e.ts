import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';

const base = inject('stationUrl');
const SHOTS = process.env.E2E_SCREENSHOTS;

describe("sharing and the 'Viral Impact' card in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it("copy link says 'Link copied!' and the shares counted in 'Viral Impact' rise", async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await visit(page, base);
    const card = page.getByRole('region', { name: 'Viral Impact' });
    await card.scrollIntoViewIfNeeded();
    const totalShares = card
      .locator('dt', { hasText: 'Total shares' })
      .locator('xpath=following-sibling::dd[1]');
    /** The figure once loaded (the card shows a placeholder until then). */
    const total = async () => {
      await totalShares.filter({ hasText: /^\d[\d,]*$/ }).waitFor();
      return Number((await totalShares.innerText()).replace(/,/g, ''));
    };
    const before = await total();
    expect(await card.getByText('Not measured').count()).toBe(1); // countries: no GeoIP database here

    await page.getByRole('button', { name: 'Copy Link' }).first().click();
    await page.getByText('Link copied!', { exact: true }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/`);
    // The card refreshes every 30 s; a reload shows the counted share at once.
    await expect
      .poll(
        async () => {
          await page.reload();
          return total();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(before + 1);
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/viral-impact.png` });
    expect(problems).toEqual([]);
    await context.close();
  });
});
