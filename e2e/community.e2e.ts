import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, showSection, visit } from './browser';
import { E2E_ADMIN } from './station';

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
    await visit(page, base);
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
    await visit(page, `${base}/#prayer`);
    await page.locator('#prayer').getByRole('button', { name: 'Submit Prayer Request' }).click();
    await page.getByText('Please enter your prayer request.', { exact: true }).first().waitFor();
    await showSection(page, 'newsletter');
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/home-390.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the chat card connects once in view, with input and send enabled', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await visit(page, base);
    await showSection(page, 'community');
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('textbox', { name: 'Message' }).isEnabled()).toBe(true);
    expect(await page.getByText('No messages yet. Start the conversation!').count()).toBe(1);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/home-1280.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('two listeners chat with each other, and a newcomer sees the history', async () => {
    const open = async () => {
      const opened = await openPage(browser, { viewport: { width: 1280, height: 900 } });
      await visit(opened.page, base);
      await showSection(opened.page, 'community');
      await opened.page.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
      return opened;
    };
    const ruth = await open();
    const boaz = await open();
    await ruth.page.getByLabel('Name', { exact: true }).fill('Ruth');
    await ruth.page.getByRole('textbox', { name: 'Message' }).fill('Where you go I will go');
    await ruth.page.getByRole('button', { name: 'Send' }).click();
    const log = (page: typeof ruth.page) => page.locator('[aria-label="Chat messages"]');
    await log(boaz.page).getByText('Where you go I will go').waitFor();
    await log(boaz.page).getByText('Ruth').first().waitFor();
    await boaz.page.getByRole('textbox', { name: 'Message' }).fill('The Lord bless you');
    await boaz.page.getByRole('button', { name: 'Send' }).click();
    await log(ruth.page).getByText('The Lord bless you').waitFor();
    await log(boaz.page).getByText('Anonymous').first().waitFor();

    const naomi = await open();
    await log(naomi.page).getByText('Where you go I will go').waitFor();
    await log(naomi.page).getByText('The Lord bless you').waitFor();
    for (const p of [ruth, boaz, naomi]) {
      expect(p.problems).toEqual([]);
      await p.context.close();
    }
  });

  it('a prayer request and a subscription go through with SPEC.md messages; staff mark the request prayed', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, `${base}/#prayer`);
    await showSection(page, 'community');
    const card = page.locator('#prayer');
    await card.getByLabel('Your name (optional)').fill('Hannah');
    await card.getByRole('textbox', { name: 'Prayer request' }).fill('For a child, and for peace at home.');
    await card.getByRole('button', { name: 'Submit Prayer Request' }).click();
    await page.getByText('Prayer Request Submitted', { exact: true }).waitFor();
    await page.getByText('Thank you for your prayer request. Our team will pray for you.').first().waitFor();
    expect(await card.getByRole('textbox', { name: 'Prayer request' }).inputValue()).toBe('');

    await showSection(page, 'newsletter');
    await page.getByLabel('Email').fill('hannah@example.org');
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByText('Successfully subscribed!', { exact: true }).first().waitFor();
    await page.getByText('Thank you for subscribing!').first().waitFor();

    // No public route reads a prayer request back.
    expect((await page.request.get(`${base}/api/prayer-requests`)).status()).toBe(401);

    await visit(page, `${base}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Prayer' }).click();
    await page.getByText('For a child, and for peace at home.').waitFor();
    await page.getByRole('button', { name: 'Mark prayed' }).first().click();
    await page.getByRole('button', { name: 'Prayed for' }).click();
    await page.getByText(`Prayed for by ${E2E_ADMIN.username}`).first().waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/prayer-tab.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Subscribers' }).click();
    await page.getByText('hannah@example.org').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
