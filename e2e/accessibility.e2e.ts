import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe';
import { launchBrowser, openPage, showSection, visit } from './browser';
import { E2E_ADMIN, streamClock } from './station';

const base = inject('stationUrl');

// The home page's sections below the player, top to bottom (home-page.tsx).
const HOME_SECTIONS = [
  'programs',
  'featured',
  'community',
  'sharing',
  'recorder',
  'impact',
  'newsletter',
  'footer',
];

// Pages a visitor is sent to with a bad link answer 400 on purpose, and the 404 page its 404.
const expectedFailures = /status of (400|404)/;

/** Waits until no placeholder is left inside `scope` (its data has arrived), then runs axe there. */
async function settledViolations(page: Page, scope: string, whole = false): Promise<string[]> {
  const placeholders = page.locator(
    `${scope} [data-testid="skeleton"], ${scope} [role="status"]:text("Loading")`,
  );
  await expect.poll(() => placeholders.count(), { timeout: 15_000 }).toBe(0);
  return axeViolations(page, whole ? undefined : scope);
}

describe('accessibility (axe-core): no violation on any screen', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('public pages: home with every section loaded, Page Not Found, a clip, the small pages, sign-in', async () => {
    const { page, context, problems } = await openPage(browser);
    const found: Record<string, string[]> = {};

    await visit(page, base);
    for (const name of HOME_SECTIONS) await showSection(page, name);
    found['/'] = await settledViolations(page, 'main', true);

    await visit(page, `${base}/no-such-page`);
    found['/no-such-page'] = await axeViolations(page);

    for (const path of ['/unsubscribe?token=not-a-token', '/newsletter/confirm?token=not-a-token']) {
      await page.goto(base + path);
      found[path] = await axeViolations(page);
    }

    // A clip needs 10 s of broadcast behind it.
    await expect.poll(() => streamClock(base), { timeout: 20_000 }).toBeGreaterThan(12);
    const clip = (await (
      await fetch(`${base}/api/clips`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ seconds: 10 }),
      })
    ).json()) as { id: string };
    await page.goto(`${base}/clips/${clip.id}`);
    found['/clips/:id'] = await axeViolations(page);

    await visit(page, `${base}/dashboard-mgmt`);
    await page.getByLabel('Username').waitFor();
    found['/dashboard-mgmt (sign-in)'] = await axeViolations(page);

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
    expect(problems.filter((p) => !expectedFailures.test(p))).toEqual([]);
    await context.close();
  });

  it('every admin tab, as a superuser sees it', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN);
    const tabs = page.getByRole('tablist').getByRole('tab');
    await tabs.first().waitFor();
    // Whatever tabs the panel has: a tab added later is checked without this spec changing.
    const names = (await tabs.allInnerTexts()).map((name) => name.trim());
    expect(names.length).toBeGreaterThan(10);
    const found: Record<string, string[]> = {};
    // The panel's frame (header, tab bars) once, with the first tab; then each tab's own panel.
    for (const [index, name] of names.entries()) {
      await tabs.nth(index).click();
      found[name] = await settledViolations(page, '[role="tabpanel"][data-state="active"]', index === 0);
    }
    expect(found).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a dialog open over the panel, and a presenter's own tabs", async () => {
    const presenter = { username: 'axe-presenter', password: 'axe presenter password' };
    const { page, context, problems } = await openPage(browser);
    await signIn(page, E2E_ADMIN);
    const found: Record<string, string[]> = {};

    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByRole('button', { name: 'Add programme', exact: true }).click();
    await page.getByRole('form', { name: 'Add programme' }).waitFor();
    found['Schedule: Add programme dialog'] = await axeViolations(page, '[role="dialog"]');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'User Management' }).click();
    const createUser = page.getByRole('form', { name: 'Create user' });
    await createUser.getByLabel('Username').fill(presenter.username);
    await createUser.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Presenter' }).click();
    await createUser.getByLabel('Password', { exact: true }).fill(presenter.password);
    await createUser.getByLabel('Confirm Password').fill(presenter.password);
    await createUser.getByRole('button', { name: 'Create User' }).click();
    await page.getByRole('button', { name: `New source password for ${presenter.username}` }).waitFor();
    expect(problems).toEqual([]);
    await context.close();

    const own = await openPage(browser);
    await signIn(own.page, presenter);
    const tabs = own.page.getByRole('tablist').getByRole('tab');
    await tabs.first().waitFor();
    const names = (await tabs.allInnerTexts()).map((name) => name.trim());
    expect(names).toContain('My broadcast');
    for (const [index, name] of names.entries()) {
      await tabs.nth(index).click();
      found[`presenter: ${name}`] = await settledViolations(
        own.page,
        '[role="tabpanel"][data-state="active"]',
        index === 0,
      );
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
    expect(own.problems).toEqual([]);
    await own.context.close();
  });
});

/** Signs in on the admin panel's page. */
async function signIn(page: Page, account: { username: string; password: string }) {
  await visit(page, `${base}/dashboard-mgmt`);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
