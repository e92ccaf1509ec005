import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';

const SHOTS = process.env.E2E_SCREENSHOTS ?? '/tmp';

let station: RunningStation;
let browser: Browser;

beforeAll(async () => {
  station = await startStation({ NETWORK_URL: 'https://grace.example' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
});

const LINKS = {
  Facebook: 'https://facebook.com/graceradio',
  YouTube: 'https://www.youtube.com/@graceradio?tab=live&x="1"',
  'Live Stream link': 'https://listen.grace.example/live',
  'Privacy Policy': 'https://grace.example/legal/privacy',
  'Terms of Service': 'https://grace.example/legal/terms',
};

describe("the Station tab's links in Chromium", () => {
  it('a superuser sets the footer and social links; the home page shows them in its served HTML and once running', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Station' }).click();
    const form = page.getByRole('form', { name: 'Station settings' });
    await form.getByLabel('Facebook').waitFor();
    for (const [label, address] of Object.entries(LINKS))
      await form.getByLabel(label, { exact: true }).fill(address);
    await form.getByLabel('Contact E-mail').fill('studio@grace.example');
    await form.getByRole('button', { name: 'Save Station Settings' }).click();
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText('Station settings saved')
      .waitFor();
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/station-links-tab.png`, fullPage: true });

    // The served HTML, before any script runs: the prerendered footer filled in, escaped.
    const served = await (await fetch(station.url)).text();
    expect(served).toContain(`href="${LINKS.Facebook}"`);
    expect(served).toContain('href="https://www.youtube.com/@graceradio?tab=live&amp;x=&quot;1&quot;"');
    expect(served).toContain(`href="${LINKS['Live Stream link']}"`);
    expect(served).toContain(`href="${LINKS['Privacy Policy']}"`);
    expect(served).toContain(`href="${LINKS['Terms of Service']}"`);
    expect(served).toContain('href="mailto:studio@grace.example"');
    expect(served).not.toContain('{{');

    // A listener's page with scripts off shows the served links; with scripts on, the same after hydration.
    const still = await browser.newContext({ javaScriptEnabled: false });
    const plain = await still.newPage();
    await plain.goto(station.url);
    const social = (p: typeof plain, name: string) =>
      p.getByRole('region', { name: 'Follow the ministry' }).getByRole('link', { name, exact: true });
    expect(await social(plain, 'Facebook').getAttribute('href')).toBe(LINKS.Facebook);
    expect(await social(plain, 'Instagram').getAttribute('href')).toBe('#');
    expect(
      await plain.locator('footer').getByRole('link', { name: 'Live Stream' }).getAttribute('href'),
    ).toBe(LINKS['Live Stream link']);
    await still.close();

    const listener = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(listener.page, station.url);
    const footer = listener.page.locator('footer');
    await footer.scrollIntoViewIfNeeded();
    await listener.page.locator('[data-section="footer"] footer').waitFor();
    const link = (name: string) => footer.getByRole('link', { name, exact: true });
    expect(await social(listener.page, 'Facebook').getAttribute('href')).toBe(LINKS.Facebook);
    expect(await social(listener.page, 'YouTube').getAttribute('href')).toBe(LINKS.YouTube);
    expect(await social(listener.page, 'Instagram').getAttribute('href')).toBe('#');
    expect(await link('Live Stream').getAttribute('href')).toBe(LINKS['Live Stream link']);
    expect(await link('Privacy Policy').getAttribute('href')).toBe(LINKS['Privacy Policy']);
    expect(await link('Terms of Service').getAttribute('href')).toBe(LINKS['Terms of Service']);
    expect(await link('studio@grace.example').getAttribute('href')).toBe('mailto:studio@grace.example');
    await listener.page.screenshot({ path: `${SHOTS}/station-links-footer.png`, fullPage: false });
    expect(listener.problems).toEqual([]);
    expect(problems).toEqual([]);
    await listener.context.close();
    await context.close();
  });
});
