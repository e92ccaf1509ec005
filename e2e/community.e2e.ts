import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage } from './browser';

const base = inject('stationUrl');
const SHOTS = process.env.E2E_SCREENSHOTS;

describe('community: prayer, chat and newsletter in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it("the header's 'Prayer' link scrolls to the prayer card", async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(base);
    const card = page.locator('#prayer');
    await card.waitFor();
    expect(await card.isVisible()).toBe(true);
    const inView = () => card.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight);
    expect(await inView()).toBe(false);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Prayer' }).click();
    await expect.poll(inView).toBe(true);
    expect(await card.getByRole('textbox', { name: 'Prayer request' }).getAttribute('rows')).toBe('4');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("refuses a blank prayer request and an invalid e-mail with SPEC.md's messages", async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/#prayer`);
    await page.locator('#prayer').getByRole('button', { name: 'Submit Prayer Request' }).click();
    await page.getByText('Please enter your prayer request.', { exact: true }).first().waitFor();
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/home-390.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the chat card connects once in view, with input and send enabled', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(base);
    const chat = page.getByRole('heading', { name: 'Live Community Chat' });
    await chat.scrollIntoViewIfNeeded();
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('textbox', { name: 'Message' }).isEnabled()).toBe(true);
    expect(await page.getByText('No messages yet. Start the conversation!').count()).toBe(1);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/home-1280.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
