import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/test/icecast-server';
import { startSmtpServer } from '../src/server/test/smtp-server';
import { ffmpegPath } from '../src/server/radio/ffmpeg';
import { launchBrowser, openPage, showSection, visit } from './browser';
import { startStation, type RunningStation } from './station';
import { clockIn, middayZone } from './midday';

/**
 * The week docs/staff-guide.md walks a new volunteer through, done in the admin panel as it says, with the
 * screenshots the guide and README.md show written to docs/images/ (STAFF_GUIDE_IMAGES elsewhere), so they
 * stay what the station looks like.
 */
const run = promisify(execFile);
const IMAGES = process.env.STAFF_GUIDE_IMAGES ?? path.resolve('docs/images');
const work = mkdtempSync(path.join(tmpdir(), 'staff-guide-e2e-'));

const zone = middayZone();

const STATION = 'Grace Live Radio';
const ADMIN = { username: 'admin', password: 'first start password' };
const NEW_PASSWORD = 'a new long password';
const PRESENTER = { username: 'pastor-ruth', password: 'ruth long password' };
const PLAYLIST = 'Morning Worship';
const LIVE = 'Midday Prayer';
const SUBSCRIBER = 'listener@example.org';
const VOLUNTEER = 'volunteer@example.org';

interface Tone {
  file: string;
  title: string;
  artist: string;
  hz: number;
  seconds: number;
}
const SONGS: Tone[] = [
  { file: 'amazing-grace.mp3', title: 'Amazing Grace', artist: 'Grace Singers', hz: 440, seconds: 40 },
  { file: 'how-great-thou-art.mp3', title: 'How Great Thou Art', artist: 'Hope Choir', hz: 523, seconds: 40 },
];
const STATION_ID: Tone = {
  file: 'station-id.mp3',
  title: 'You are listening to Grace Live Radio',
  artist: 'Grace Live Radio',
  hz: 660,
  seconds: 5,
};
const SERMON: Tone = {
  file: 'the-good-shepherd.mp3',
  title: 'The Good Shepherd',
  artist: 'Pastor Ruth',
  hz: 330,
  seconds: 60,
};

async function makeTone(tone: Tone) {
  const file = path.join(work, tone.file);
  await run(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${tone.hz}:duration=${tone.seconds}:sample_rate=44100`],
    ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k'],
    ...['-metadata', `title=${tone.title}`, '-metadata', `artist=${tone.artist}`, file],
  ]);
  return { name: tone.file, mimeType: 'audio/mpeg', buffer: readFileSync(file) };
}

let station: RunningStation;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let encoder: ChildProcess | undefined;
/** The station's address: its port chosen here, so that PUBLIC_URL (needed with SMTP_URL) can name it. */
let base = '';
let port = 0;
beforeAll(async () => {
  mkdirSync(IMAGES, { recursive: true });
  [smtp, browser] = await Promise.all([startSmtpServer(), launchBrowser()]);
});
// A station of its own for each attempt: a retry starts again from the first start, as the guide does.
beforeEach(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  smtp.received.length = 0;
  station = await startStation({
    PORT: String(port),
    PUBLIC_URL: base,
    SMTP_URL: smtp.url,
    STATION_TIMEZONE: zone,
    STATION_NAME: STATION,
    SEED_DEMO: 'false',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
});
afterEach(async () => {
  encoder?.kill('SIGKILL');
  encoder = undefined;
  await station?.stop();
});
afterAll(async () => {
  await browser?.close();
  await smtp?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A screenshot for the guide; toasts, which come and go, are left out. */
const shot = (target: Page | Locator, name: string) =>
  target.screenshot({
    path: path.join(IMAGES, name),
    animations: 'disabled',
    style: '[role="region"][aria-label^="Notifications"] { display: none !important; }',
  });
const toast = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text, { exact: true })
    .first();
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();
const card = (page: Page, title: string) =>
  page
    .locator('.rounded-xl.border')
    .filter({ has: page.getByText(title, { exact: true }) })
    .first();
/** The first e-mail to an address whose subject or text says this (a subject with quotes or dashes is encoded). */
const mailTo = (address: string, says: RegExp) =>
  smtp.received.find(
    (m) =>
      m.envelopeTo.includes(address) &&
      (says.test(m.headers.get('subject') ?? '') || says.test(m.parts['text/plain'] ?? '')),
  );

async function signIn(page: Page, username: string, password: string) {
  await visit(page, `${base}/dashboard-mgmt`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: `${STATION} Admin Panel` }).waitFor();
}

/** Uploads through the Library tab and waits until each file is measured (it airs only then). */
async function upload(page: Page, tones: Tone[]) {
  await tab(page, 'Library');
  await page.getByLabel('Add audio files').setInputFiles(await Promise.all(tones.map(makeTone)));
  for (const { file } of tones) {
    const row = page.getByTestId('media-row').filter({ hasText: file });
    await row.getByText(/LUFS$/).waitFor({ timeout: 90_000 });
  }
}

/** The Library's Edit form: the kind of an item (uploads come in as Music). */
async function setKind(page: Page, title: string, kind: string) {
  await page.getByRole('button', { name: `Edit ${title}`, exact: true }).click();
  const form = page.getByRole('form', { name: `Edit ${title}` });
  await form.getByLabel('Kind').selectOption({ label: kind });
  await form.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'Library item saved').waitFor();
}

describe('the staff guide, step by step', () => {
  it('a volunteer signs in, fills the library, makes a playlist, schedules a week with a presenter who goes live, and writes to subscribers; each screen is saved for the guide', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });

    // 1. Sign in with the first start's account, and change its password.
    await visit(page, `${base}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await shot(page, 'staff-sign-in.png');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await tab(page, 'Settings');
    const change = page.getByRole('form', { name: 'Change password' });
    await change.getByLabel('Current Password').fill(ADMIN.password);
    await change.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await change.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await shot(card(page, 'Change Password'), 'staff-change-password.png');
    await change.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Password changed successfully').waitFor();

    // 2. The library: songs, a station identification and a sermon; the kinds set in Edit.
    await upload(page, [...SONGS, STATION_ID, SERMON]);
    await setKind(page, STATION_ID.title, 'Station identification');
    await setKind(page, SERMON.title, 'Sermon');
    await page.setViewportSize({ width: 1280, height: 1300 });
    await shot(page, 'staff-library.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 3. A playlist in the default rotation, a station identification every 2 songs.
    await tab(page, 'Playlists');
    await page.getByLabel('New playlist').fill(PLAYLIST);
    await page.getByRole('button', { name: 'Create playlist' }).click();
    await toast(page, 'Playlist created').waitFor();
    const settings = page.getByRole('form', { name: `Settings of ${PLAYLIST}` });
    await settings.getByLabel('Order').selectOption({ label: 'Shuffled' });
    await settings.getByRole('switch', { name: /In the default rotation/ }).click();
    await settings.getByLabel('Insert between songs').selectOption({ label: 'Station identification' });
    await settings.getByLabel('Insert every … songs').fill('2');
    await settings.getByLabel('No repeat of a title within (minutes)').fill('0');
    await settings.getByLabel('No repeat of an artist within (minutes)').fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Playlist saved').waitFor();
    for (const { title } of SONGS) {
      await page.getByRole('button', { name: `Add ${title} to ${PLAYLIST}` }).click();
      await page
        .getByRole('list', { name: `Items of ${PLAYLIST}` })
        .getByText(title, { exact: true })
        .waitFor();
    }
    const row = page.getByTestId('playlist-row').filter({ hasText: PLAYLIST });
    await row.getByText('In rotation · weight 1').waitFor();
    await page.setViewportSize({ width: 1280, height: 1900 });
    await shot(page, 'staff-playlist.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 4. A presenter's account.
    await tab(page, 'User Management');
    const createUser = page.getByRole('form', { name: 'Create user' });
    await createUser.getByLabel('Username').fill(PRESENTER.username);
    await createUser.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Presenter' }).click();
    await createUser.getByLabel('Password', { exact: true }).fill(PRESENTER.password);
    await createUser.getByLabel('Confirm Password').fill(PRESENTER.password);
    await shot(page, 'staff-users.png');
    await createUser.getByRole('button', { name: 'Create User' }).click();
    await toast(page, 'User created successfully').waitFor();
    await page.getByRole('button', { name: `New source password for ${PRESENTER.username}` }).waitFor();

    // 5. The week: the playlist every morning of today, the newest sermon on Sunday, and the presenter live
    // at the next whole minute that leaves time to save it.
    await tab(page, 'Schedule');
    await page.getByText(`Times are in the station's time zone (${zone})`, { exact: false }).waitFor();
    const addProgramme = async (fill: (form: Locator) => Promise<void>, shotName?: string) => {
      await page.getByRole('button', { name: 'Add programme', exact: true }).click();
      const form = page.getByRole('form', { name: 'Add programme' });
      await fill(form);
      if (shotName) {
        await page.setViewportSize({ width: 1280, height: 1400 });
        await shot(page.getByRole('dialog'), shotName);
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await form.getByRole('button', { name: 'Add programme' }).click();
      await toast(page, 'Programme added').waitFor();
      await toast(page, 'Programme added').waitFor({ state: 'hidden' });
    };
    await addProgramme(async (form) => {
      await form.getByLabel('Title').fill(PLAYLIST);
      await form.getByLabel('Start time').fill('06:00');
      await form.getByLabel('Duration (minutes)').fill('180');
      await form.getByLabel('Plays').selectOption({ label: 'A playlist' });
      await form.getByLabel('Playlist', { exact: true }).selectOption({ label: PLAYLIST });
    });
    await addProgramme(async (form) => {
      await form.getByLabel('Title').fill('Sunday Sermon');
      await form.getByLabel('Speaker (optional)').fill(SERMON.artist);
      await form.getByRole('combobox', { name: 'Day' }).click();
      await page.getByRole('option', { name: 'Sunday' }).click();
      await form.getByLabel('Start time').fill('10:00');
      await form.getByLabel('Duration (minutes)').fill('60');
      await form.getByLabel('Plays').selectOption({ label: 'The newest recording of a kind' });
      await form.getByLabel('Newest recording of kind').selectOption({ label: 'Sermon' });
    });
    const start = Math.ceil((Date.now() + 30_000) / 60_000) * 60_000;
    const end = start + 60_000;
    await addProgramme(async (form) => {
      await form.getByLabel('Title').fill(LIVE);
      await form.getByLabel('Speaker (optional)').fill(SERMON.artist);
      await form.getByLabel('Start time').fill(clockIn(zone, start));
      await form.getByLabel('Duration (minutes)').fill('1');
      await form.getByLabel('Plays').selectOption({ label: 'Live from a presenter' });
      await form.getByLabel('Presenter').selectOption({ label: PRESENTER.username });
      await form.getByLabel('Then play').selectOption({ label: PLAYLIST });
    }, 'staff-programme-form.png');
    expect(start - Date.now(), 'ms to spare before the live programme').toBeGreaterThan(10_000);
    await page
      .getByRole('list', { name: `${LIVE}, ${clockIn(zone, start)}–${clockIn(zone, end)}` })
      .waitFor({ timeout: 30_000 });
    await page.setViewportSize({ width: 1280, height: 1500 });
    await shot(page, 'staff-schedule.png');
    await shot(page, 'admin-panel.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 6. Dead air and notifications (Station tab): the silence rule as shipped, e-mail to the volunteer.
    await tab(page, 'Station');
    const audio = page.getByRole('form', { name: 'Audio settings' });
    await expect.poll(() => audio.getByLabel('Silence level (dBFS)').inputValue()).toBe('-50');
    expect(await audio.getByLabel('Silence time (seconds)').inputValue()).toBe('10');
    await shot(card(page, 'Audio'), 'staff-audio-settings.png');
    const notifications = page.getByRole('form', { name: 'Notifications' });
    const email = notifications.getByRole('group', { name: 'E-mail' });
    await email.getByLabel('Send e-mail').check();
    await email.getByLabel('Send to (e-mail addresses, separated by commas)').fill(VOLUNTEER);
    await notifications.getByRole('button', { name: 'Save Notifications' }).click();
    await toast(page, 'Notifications saved').waitFor();
    await email.getByRole('button', { name: 'Send test to E-mail' }).click();
    await email.getByText(/^Test: Delivered/).waitFor({ timeout: 30_000 });
    expect(mailTo(VOLUNTEER, /test notification/)).toBeDefined();
    await email.scrollIntoViewIfNeeded();
    await shot(email, 'staff-notifications.png');

    // 7. The presenter signs in, makes a source password and connects an encoder before the programme.
    const presenter = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await signIn(presenter.page, PRESENTER.username, PRESENTER.password);
    const mine = presenter.page.getByTestId('my-programme').filter({ hasText: LIVE });
    await mine.waitFor();
    await presenter.page.getByRole('button', { name: 'New Source Password' }).click();
    const sourcePassword = await presenter.page
      .getByRole('textbox', { name: 'Your new source password' })
      .inputValue();
    expect(sourcePassword.length).toBeGreaterThanOrEqual(16);
    await presenter.page.setViewportSize({ width: 1280, height: 1300 });
    await shot(presenter.page, 'staff-my-broadcast.png');
    // A tone, silent from 25 s into the programme: dead air the station covers, and tells staff about.
    const silentFrom = (start - Date.now()) / 1000 + 25;
    encoder = spawn(ffmpegPath(), [
      ...['-v', 'error', '-re', '-f', 'lavfi', '-i', 'sine=frequency=392:sample_rate=44100'],
      ...['-af', `volume=enable='gt(t,${silentFrom.toFixed(1)})':volume=0`],
      ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', '-content_type', 'audio/mpeg', '-f', 'mp3'],
      `icecast://${PRESENTER.username}:${sourcePassword}@127.0.0.1:${port}/stream`,
    ]);

    // The listener's home page while the presenter is on air.
    const listener = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(listener.page, base);
    const today = async () =>
      (
        (await (await fetch(`${base}/api/programs/today`)).json()) as {
          title: string;
          status: string;
        }[]
      )
        .filter((p) => p.title === LIVE)
        .map((p) => p.status);
    await expect.poll(today, { timeout: start - Date.now() + 30_000, interval: 1000 }).toEqual(['LIVE']);
    await expect.poll(() => mailTo(VOLUNTEER, /is on air/), { timeout: 30_000 }).toBeDefined();
    await listener.page.getByRole('button', { name: 'Turn On' }).click();
    await listener.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    await listener.page.locator('#programs').getByText(`On air: ${LIVE}`).waitFor({ timeout: 40_000 });
    await listener.page.evaluate(() => window.scrollTo(0, 0));
    await shot(listener.page, 'home.png');

    // Dead air: the silence is covered by the rotation within the silence time, and staff told by e-mail.
    await expect.poll(() => mailTo(VOLUNTEER, /dead air/), { timeout: 60_000, interval: 1000 }).toBeDefined();

    // 8. Captions for the listeners, sent while the programme is on.
    await tab(page, 'Captions');
    const captions = page.getByRole('form', { name: 'Send a caption' });
    await captions.getByLabel('Speaker (optional)').fill(SERMON.artist);
    await captions.getByLabel('Line').fill('The Lord is my shepherd; I shall not want.');
    await captions.getByRole('button', { name: 'Send line' }).click();
    await page.getByTestId('captions-sent').getByText('The Lord is my shepherd; I shall not want.').waitFor();
    await shot(card(page, 'Live Captions'), 'staff-captions.png');

    // 9. After the programme: its recording waits in the Library as a draft; Publish makes it a sermon.
    await expect.poll(today, { timeout: end - Date.now() + 30_000, interval: 1000 }).not.toEqual(['LIVE']);
    encoder.kill('SIGTERM');
    // The Library tab reads the list as it opens: opened again until the recording is there.
    const draft = page.getByTestId('media-row').filter({ hasText: 'Draft' }).first();
    await expect
      .poll(
        async () => {
          await tab(page, 'Captions');
          await tab(page, 'Library');
          await page.getByRole('list', { name: 'Library items' }).waitFor();
          return draft.count();
        },
        { timeout: 120_000, interval: 3_000 },
      )
      .toBeGreaterThan(0);
    await draft.getByText(/LUFS$/).waitFor({ timeout: 120_000 });
    await draft.scrollIntoViewIfNeeded();
    await shot(draft, 'staff-recording-draft.png');
    await draft.getByRole('button', { name: /^Publish / }).click();
    await toast(page, 'Published as a featured sermon').waitFor();
    await expect.poll(() => mailTo(VOLUNTEER, /is published/), { timeout: 30_000 }).toBeDefined();

    // 10. The newsletter: a listener subscribes and confirms; staff preview, test and send.
    await showSection(listener.page, 'newsletter');
    await listener.page.getByLabel('Email').fill(SUBSCRIBER);
    await listener.page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect.poll(() => mailTo(SUBSCRIBER, /./), { timeout: 30_000 }).toBeDefined();
    const confirmLink = /https?:\/\/\S+\/newsletter\/confirm\?\S+/.exec(
      mailTo(SUBSCRIBER, /./)!.parts['text/plain'] ?? '',
    )![0];
    // Opening the link confirms the address, as the subscriber's click does.
    expect((await fetch(confirmLink)).status).toBe(200);
    await tab(page, 'Subscribers');
    await page.getByText(SUBSCRIBER).waitFor();
    await tab(page, 'Newsletter');
    const newsletter = page.getByRole('form', { name: 'Newsletter' });
    await newsletter.getByLabel('Subject').fill('This week on Grace Live Radio');
    await newsletter
      .getByLabel('Text')
      .fill(
        'Morning Worship from 6, the Sunday sermon at 10, and Midday Prayer live with Pastor Ruth.\n\nListen at http://radio.example.org',
      );
    await newsletter.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'Preview' }).waitFor();
    await page.getByLabel('Send a test to').fill(VOLUNTEER);
    await page.getByRole('button', { name: 'Send test' }).click();
    await toast(page, 'Test sent').waitFor();
    await page.setViewportSize({ width: 1280, height: 1700 });
    await shot(page, 'staff-newsletter.png');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Send to subscribers' }).click();
    await page.getByRole('button', { name: 'Yes, send it to every confirmed subscriber' }).click();
    await toast(page, 'Newsletter on its way').waitFor();
    await expect
      .poll(() => mailTo(SUBSCRIBER, /This week on Grace Live Radio/), { timeout: 30_000 })
      .toBeDefined();

    expect(problems).toEqual([]);
    expect(presenter.problems).toEqual([]);
    expect(listener.problems).toEqual([]);
    await Promise.all([context.close(), presenter.context.close(), listener.context.close()]);
  }, 600_000);
});
