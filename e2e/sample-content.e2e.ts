import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';
import { middayZone } from './midday';

const SHOTS = process.env.E2E_SCREENSHOTS ?? '/tmp';

// Weekdays and weekends each have an evening sample programme; one of them is on today's list at midday.
const EVENING = /^(Evening Worship|Gospel Classics)$/;

let station: RunningStation;
let browser: Browser;

beforeAll(async () => {
  // A station being tried out: SEED_DEMO, PUBLIC_URL and a production NODE_ENV unset, so it seeds the sample.
  station = await startStation({
    STATION_TIMEZONE: middayZone(),
    SEED_DEMO: '',
    PUBLIC_URL: '',
    NODE_ENV: 'development',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
});
afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.log(`station log:\n${station.output().slice(-8_000)}`);
});

async function homeShows(page: Page) {
  await visit(page, station.url);
  const featured = page.getByRole('region', { name: 'Featured Content' });
  await featured.scrollIntoViewIfNeeded();
  await featured.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
  const programs = page.locator('#programs');
  await programs.scrollIntoViewIfNeeded();
  await programs.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
  return { featured, programs };
}

describe('sample content', () => {
  it('is badged for staff, removed in one click, and gone from the public site while the station plays', async () => {
    const listener = await openPage(browser);
    const before = await homeShows(listener.page);
    await before.featured.getByRole('heading', { name: 'Walking in Faith' }).waitFor();
    await before.programs.getByRole('heading', { name: EVENING }).waitFor();

    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const notice = page.getByRole('region', { name: 'This station is showing sample content' });
    await notice.getByText('43 programmes in the Schedule and 4 featured items in Content').waitFor();
    // The Content tab opens first: each of the four items is marked.
    const rows = page.getByTestId('content-row');
    await rows.filter({ hasText: 'Walking in Faith' }).getByText('Sample', { exact: true }).waitFor();
    expect(await rows.getByText('Sample', { exact: true }).count()).toBe(4);
    await page.screenshot({ path: `${SHOTS}/sample-notice-content.png` });

    await page.getByRole('tab', { name: 'Schedule' }).click();
    const entries = page.getByTestId('schedule-entry');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(43);
    expect(await entries.getByText('Sample', { exact: true }).count()).toBe(43);
    await page.screenshot({ path: `${SHOTS}/sample-schedule.png` });
    // The next 24 hours name the programmes they fall in: the sample ones are marked there too.
    const upcoming = page.getByRole('region', { name: 'Next 24 hours' });
    await upcoming.getByText('Sample', { exact: true }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/sample-upcoming.png` });

    await notice.getByRole('button', { name: 'Remove sample content' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('What your staff added or edited stays.', { exact: false }).waitFor();
    await page.screenshot({ path: `${SHOTS}/sample-confirm.png` });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText('Sample content removed', { exact: true })
      .waitFor();
    await notice.waitFor({ state: 'detached' });
    await entries.first().waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Content' }).click();
    await page.getByText('No featured content yet.').waitFor();
    await page.screenshot({ path: `${SHOTS}/sample-removed.png` });
    expect(problems).toEqual([]);
    await context.close();

    const after = await homeShows(listener.page);
    await after.featured.getByText('Sermons and devotions will appear here soon.').waitFor();
    await after.programs.getByText('Upcoming programs will appear here').waitFor();
    expect(await listener.page.getByRole('heading', { name: 'Walking in Faith' }).count()).toBe(0);
    expect(await listener.page.getByRole('heading', { name: EVENING }).count()).toBe(0);
    await listener.page.screenshot({ path: `${SHOTS}/sample-home-after.png`, fullPage: true });
    expect(listener.problems).toEqual([]);
    await listener.context.close();

    // The AutoDJ still has something to play: the station's test transmission, which is not sample.
    const stream = await fetch(`${station.url}/stream`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let bytes = 0;
    while (bytes < 16_000) bytes += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
  });

  it('is not seeded on a station started with NODE_ENV=production', async () => {
    const production = await startStation({ NODE_ENV: 'production', SEED_DEMO: '', PUBLIC_URL: '' });
    try {
      expect(await (await fetch(`${production.url}/api/featured-content`)).json()).toEqual([]);
      expect(await (await fetch(`${production.url}/api/programs/today`)).json()).toEqual([]);
    } finally {
      await production.stop();
    }
  });
});
