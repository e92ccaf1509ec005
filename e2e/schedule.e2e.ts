import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, type RunningStation } from './station';
import { clockIn, middayZone } from './midday';

const SHOTS = process.env.E2E_SCREENSHOTS ?? '/tmp';

const minuteIn = (zone: string, now = new Date()) => {
  const [h, m] = clockIn(zone, now.getTime()).split(':').map(Number);
  return h! * 60 + m!;
};
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const zone = middayZone();
const STATION = 'Grace Hour Radio';
let station: RunningStation;
let browser: Browser;

beforeAll(async () => {
  // No demo week: only what staff enter here is on the schedule.
  station = await startStation({ STATION_TIMEZONE: zone, SEED_DEMO: 'false', STATION_NAME: STATION });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
});

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

async function addProgramme(
  page: Page,
  fields: { title: string; speaker?: string; focus?: string; start: string; minutes: number },
) {
  await page.getByRole('button', { name: 'Add programme', exact: true }).click();
  const form = page.getByRole('form', { name: 'Add programme' });
  await form.getByLabel('Title').fill(fields.title);
  if (fields.speaker) await form.getByLabel('Speaker (optional)').fill(fields.speaker);
  if (fields.focus) await form.getByLabel('Ministry focus (optional)').fill(fields.focus);
  await form.getByLabel('Start time').fill(fields.start);
  await form.getByLabel('Duration (minutes)').fill(String(fields.minutes));
  await form.getByRole('button', { name: 'Add programme' }).click();
  return form;
}

describe('the Schedule tab in Chromium', () => {
  it("staff add today's programmes; 'Today's Programs' shows them LIVE and SOON; an overlap is asked about before saving", async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByText(`Times are in the station's time zone (${zone})`, { exact: false }).waitFor();

    const now = minuteIn(zone);
    await addProgramme(page, {
      title: 'Morning Glory Live',
      speaker: 'Pastor Ruth',
      focus: 'Worship',
      start: hhmm(now - 10),
      minutes: 30,
    });
    await toast(page, 'Programme added').waitFor();
    await addProgramme(page, {
      title: 'Hope at Noon',
      speaker: 'Youth Ministry',
      focus: 'Youth',
      start: hhmm(now + 30),
      minutes: 30,
    });
    await toast(page, 'Programme added').waitFor();

    // Overlapping Hope at Noon: staff are asked first, and nothing is saved until they confirm. The
    // station presents Prayer Line itself: no speaker.
    const prayerLine = { title: 'Prayer Line', start: hhmm(now + 40), minutes: 15 };
    const clash = await addProgramme(page, prayerLine);
    const warning = page.getByRole('alertdialog', { name: 'Overlapping programmes' });
    await warning
      .getByText(/This overlaps "Hope at Noon" \(\w+ \d\d:\d\d–\d\d:\d\d\)\. Save it anyway\?/)
      .waitFor();
    await warning.getByRole('button', { name: 'Go back' }).click();
    await clash.getByRole('button', { name: 'Cancel' }).click();
    const today = page.getByRole('region', { name: /Today$/ });
    await today.getByText('Hope at Noon').waitFor();
    expect(await today.getByText('Prayer Line').count()).toBe(0);
    await addProgramme(page, prayerLine);
    await warning.getByRole('button', { name: 'Save anyway' }).click();
    await toast(page, 'Programme added').waitFor();
    const flagged = today.getByTestId('schedule-entry').filter({ hasText: 'Overlaps' });
    await expect.poll(() => flagged.count()).toBe(2);
    expect(await flagged.allInnerTexts()).toEqual([
      expect.stringContaining('Hope at Noon'),
      expect.stringContaining('Prayer Line'),
    ]);

    await page.screenshot({ path: `${SHOTS}/schedule-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Schedule', level: 3 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/schedule-390.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Add programme', exact: true }).click();
    const phoneForm = page.getByRole('form', { name: 'Add programme' });
    await phoneForm.getByLabel('Title').waitFor();
    await page.screenshot({ path: `${SHOTS}/schedule-form-390.png` });
    await phoneForm.getByRole('button', { name: 'Cancel' }).click();
    // No refused request on the way: the overlap was a question, not an error in the console.
    expect(problems).toEqual([]);

    // The listener's page, in the station's time zone.
    const listener = await openPage(browser);
    await visit(listener.page, station.url);
    const section = listener.page.locator('#programs');
    await section.scrollIntoViewIfNeeded();
    await section.getByText('On air: Morning Glory Live').waitFor();
    const card = (title: string) => section.getByRole('listitem').filter({ hasText: title });
    await card('Hope at Noon').getByText('SOON', { exact: true }).waitFor();
    await card('Hope at Noon').getByText('Youth', { exact: true }).waitFor();
    await card('Prayer Line').getByText('SOON', { exact: true }).waitFor();
    await card('Prayer Line').getByText(STATION, { exact: true }).waitFor();
    const listed = (await (await fetch(`${station.url}/api/programs/today`)).json()) as {
      title: string;
      status: string;
      ministryFocus?: string;
    }[];
    expect(listed.map((p) => [p.title, p.status])).toEqual([
      ['Morning Glory Live', 'LIVE'],
      ['Hope at Noon', 'SOON'],
      ['Prayer Line', 'SOON'],
    ]);
    expect(listed[0]?.ministryFocus).toBe('Worship');

    // A one-off change for today wins over the weekly entry.
    await page.setViewportSize({ width: 1280, height: 900 });
    const onToday = page.getByRole('list', { name: /^Programmes on / });
    await onToday.getByRole('button', { name: 'Cancel that day: Morning Glory Live' }).click();
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText(/cancelled on/)
      .waitFor();
    await listener.page.reload();
    await section.scrollIntoViewIfNeeded();
    await section.getByText(/is on the air around the clock/).waitFor();
    expect(await section.getByText('Morning Glory Live').count()).toBe(0);
    expect(listener.problems).toEqual([]);
    await listener.context.close();
    await context.close();
  });
});
