import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../src/server/radio/ffmpeg';
import { ebur128 } from '../src/server/radio/test-audio';
import { openPage, visit } from './browser';
import { E2E_ADMIN, ownBrowserAndStation } from './station';

const run = promisify(execFile);
const SHOTS = process.env.E2E_SCREENSHOTS;
const work = mkdtempSync(path.join(tmpdir(), 'library-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tone of `seconds` at `gainDb`, encoded as the file name's extension asks (ffmpeg picks the codec). */
async function makeAudio(name: string, options: { sampleRate: number; gainDb: number; codec: string[] }) {
  const file = path.join(work, name);
  await run(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=330:duration=10:sample_rate=${options.sampleRate}`],
    ...['-af', `volume=${options.gainDb}dB`, '-ac', '2', ...options.codec, file],
  ]);
  return { name, file, buffer: readFileSync(file) };
}

/** The LUFS figure a library row shows ('−14.2 LUFS' with a true minus). */
async function shownLufs(row: Locator): Promise<number> {
  const text = await row.getByText(/LUFS$/).textContent();
  return Number(text!.replace('\u2212', '-').replace(' LUFS', ''));
}

const uploadRow = (page: Page, name: string) => page.getByTestId('upload-row').filter({ hasText: name });
const libraryRow = (page: Page, name: string) => page.getByTestId('media-row').filter({ hasText: name });
const progressOf = (page: Page, name: string) =>
  page.getByLabel(`Upload of ${name}`).evaluate((bar) => (bar as HTMLProgressElement).value);

describe('the Library tab in Chromium', () => {
  const own = ownBrowserAndStation();

  it('staff upload a WAV, a 48 kHz MP3 and an M4A with progress, see their measured loudness, edit a title, preview, add artwork and delete; a text file named .mp3 is refused with the reason', async () => {
    const files = await Promise.all([
      makeAudio('hymn.wav', { sampleRate: 44_100, gainDb: -6, codec: ['-c:a', 'pcm_s16le'] }),
      makeAudio('psalm-48k.mp3', {
        sampleRate: 48_000,
        gainDb: -18,
        codec: ['-c:a', 'libmp3lame', '-b:a', '128k'],
      }),
      makeAudio('sermon.m4a', { sampleRate: 44_100, gainDb: -12, codec: ['-c:a', 'aac', '-b:a', '96k'] }),
    ]);
    const notes = {
      name: 'notes.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('These are my sermon notes, not a recording.\n'.repeat(40)),
    };

    const { page, context, problems } = await openPage(own.browser);
    await visit(page, `${own.station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByText('The library is empty: upload audio above.').waitFor();

    // A slow upload line, so each file's progress can be seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    await page
      .getByLabel('Add audio files')
      .setInputFiles([
        ...files.map(({ name, buffer }) => ({ name, buffer, mimeType: 'application/octet-stream' })),
        notes,
      ]);
    await expect.poll(() => progressOf(page, 'hymn.wav'), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await progressOf(page, 'hymn.wav')).toBeLessThan(1);
    await uploadRow(page, 'sermon.m4a').getByText('Waiting…').waitFor();

    for (const { name } of files)
      await uploadRow(page, name).getByText('Uploaded').waitFor({ timeout: 30_000 });
    const refused = uploadRow(page, 'notes.mp3');
    await refused.getByText('Refused').waitFor({ timeout: 30_000 });
    expect(await refused.getByRole('alert').textContent()).toMatch(/audio/i);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    // Analysed in the background: the list reads itself again until each shows its loudness.
    for (const { name, file } of files) {
      const row = libraryRow(page, name);
      await row.getByText(/LUFS$/).waitFor({ timeout: 60_000 });
      expect(Math.abs((await shownLufs(row)) - (await ebur128(file)).lufs)).toBeLessThanOrEqual(0.5);
      expect(await row.textContent()).toMatch(/0:10/);
    }
    await libraryRow(page, 'psalm-48k.mp3').getByText('48 kHz').waitFor();
    await page.getByText('3 items', { exact: true }).waitFor();
    expect(await page.getByTestId('media-row').filter({ hasText: 'notes.mp3' }).count()).toBe(0);

    // Staff give the WAV its real title.
    const hymn = libraryRow(page, 'hymn.wav');
    await hymn.getByRole('button', { name: /^Edit / }).click();
    const form = page.getByRole('form', { name: /^Edit / });
    await form.getByLabel('Title').fill('Be Thou My Vision');
    await form.getByLabel('Kind').selectOption({ label: 'Music' });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Be Thou My Vision' }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Library' }).click();
    await libraryRow(page, 'hymn.wav').getByRole('heading', { name: 'Be Thou My Vision' }).waitFor();

    // A preview plays in the page from the address the station signs for it.
    const psalm = libraryRow(page, 'psalm-48k.mp3');
    await psalm.getByRole('button', { name: /^Preview / }).click();
    const preview = psalm.getByLabel(/^Preview of /);
    await expect
      .poll(() => preview.evaluate((audio) => (audio as HTMLAudioElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0.5);

    // Artwork given by hand shows beside the item.
    const cover = await sharp({
      create: { width: 300, height: 300, channels: 3, background: { r: 30, g: 60, b: 140 } },
    })
      .png()
      .toBuffer();
    await psalm.getByLabel(/^Artwork image for /).setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: cover,
    });
    await psalm.getByRole('img', { name: /^Artwork for / }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/library-tab.png`, fullPage: true });

    // The AutoDJ plays all three in turn, and a listener on the home page hears them: the audio moves on
    // and the title changes with each item.
    const ear = await openPage(own.browser);
    await visit(ear.page, own.station.url);
    await ear.page.getByRole('button', { name: 'Turn On' }).click();
    await ear.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    const nowPlaying = ear.page.getByTestId('now-playing');
    const heard = new Set<string>();
    const audioTime = () =>
      ear.page.evaluate(
        () => document.querySelector<HTMLAudioElement>('audio[data-station-player]')?.currentTime ?? -1,
      );
    const started = await audioTime();
    await expect
      .poll(
        async () => {
          const text = (await nowPlaying.textContent().catch(() => '')) ?? '';
          for (const title of ['Be Thou My Vision', 'psalm-48k', 'sermon'])
            if (text.includes(title)) heard.add(title);
          return heard.size;
        },
        { timeout: 120_000, interval: 250 },
      )
      .toBe(3);
    expect(await audioTime()).toBeGreaterThan(started + 10);
    await ear.context.close();

    // Deleted after the confirmation: the list says so.
    await libraryRow(page, 'sermon.m4a')
      .getByRole('button', { name: /^Delete / })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 items', { exact: true }).waitFor();

    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
    await context.close();
  }, 240_000);
});
