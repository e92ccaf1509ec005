import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, showSection, visit } from './browser';

const base = inject('stationUrl');
const work = mkdtempSync(path.join(tmpdir(), 'recorder-e2e-'));
const SHOTS = process.env.E2E_SCREENSHOTS ?? work;

/** Seconds of audio a file decodes to (ffprobe), failing if it does not decode. */
function decodedSeconds(file: string): number {
  execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  return Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]),
  );
}

/** What a file really is, from its first bytes: an MP4 (ftyp box), WebM (EBML), WAV (RIFF/WAVE) or MP3. */
function containerOf(bytes: Buffer): string {
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WAVE'
  )
    return 'wav';
  if (bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0))
    return 'mp3';
  return 'unknown';
}

/** The extension each container is saved under. */
const EXTENSION_OF: Record<string, string> = { mp4: '.m4a', webm: '.webm', wav: '.wav', mp3: '.mp3' };

const heardClock = async (page: Page) =>
  Number(await page.getByRole('region', { name: 'Live player' }).getAttribute('data-stream-clock'));

async function startPlaying(page: Page) {
  await visit(page, base);
  await page.getByRole('button', { name: 'Turn On' }).click();
  await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
  // Playing and placed on the stream clock (from the metadata heard with the audio).
  await expect
    .poll(() => page.getByRole('region', { name: 'Live player' }).getAttribute('data-stream-clock'), {
      timeout: 20_000,
    })
    .toMatch(/^\d+\.\d$/);
}

describe('recording a moment in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("downloads under its real type, and Share copies the page of the station's clip of that moment", async () => {
    const { page, context, problems } = await openPage(browser, {
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await startPlaying(page);
    await showSection(page, 'recorder');
    await page.getByRole('button', { name: 'Record a Clip' }).click();
    await page.getByLabel(/Clip title/).fill('E2E Psalm 23!');
    await page.getByLabel('Clip length').selectOption('15');
    const heardAtStart = await heardClock(page);
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await expect
      .poll(() => page.getByTestId('recording-timer').textContent(), { timeout: 15_000 })
      .toMatch(/0:0[6-9] \/ 0:15/);
    await page.getByRole('button', { name: 'Stop' }).click();
    const heardAtStop = await heardClock(page);
    await page.getByRole('button', { name: /View Recordings \(1\)/ }).click();
    const item = page.getByTestId('recording');
    await expect.poll(() => item.getByRole('heading').textContent()).toBe('E2E Psalm 23!');
    await page.getByRole('dialog').screenshot({ path: path.join(SHOTS, 'recordings-dialog.png') });

    // Download: whatever type this Chromium records in, the name's extension is what the bytes are.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: 'Download' }).click(),
    ]);
    const saved = path.join(work, download.suggestedFilename());
    await download.saveAs(saved);
    const container = containerOf(readFileSync(saved));
    const recordsMp4 = await page.evaluate(() => MediaRecorder.isTypeSupported('audio/mp4'));
    expect(container).toBe(recordsMp4 ? 'mp4' : 'webm');
    expect(download.suggestedFilename()).toBe(`e2e_psalm_23_${EXTENSION_OF[container]}`);
    const recordedSeconds = decodedSeconds(saved);
    expect(recordedSeconds).toBeGreaterThan(5);

    // Share: this Chromium has no native share sheet, so the message with the clip's page is copied.
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
    await item.getByRole('button', { name: 'Share' }).click();
    await page.getByText('Copied to clipboard!', { exact: true }).waitFor();
    await page.getByText('Share this message to spread the word', { exact: true }).first().waitFor();
    const message = await page.evaluate(() => navigator.clipboard.readText());
    const link = /Listen with me: (\S+)$/.exec(message)?.[1];
    expect(link).toMatch(new RegExp(`^${base}/clips/[0-9a-f-]{36}$`));
    const id = link!.split('/').pop()!;

    const sharePage = await fetch(link!);
    expect(sharePage.status).toBe(200);
    const html = await sharePage.text();
    expect(html).toContain('<h1>E2E Psalm 23!</h1>');
    expect(html).toContain(`src="/api/clips/${id}/audio"`);

    // The station's clip is the same stretch of the broadcast: about as long as the recording.
    const meta = (await (await fetch(`${base}/api/clips/${id}`)).json()) as {
      title: string;
      duration: number;
    };
    expect(meta.title).toBe('E2E Psalm 23!');
    const audio = await fetch(`${base}/api/clips/${id}/audio`);
    const clipBytes = Buffer.from(await audio.arrayBuffer());
    expect(containerOf(clipBytes)).toBe('mp3');
    const clipFile = path.join(work, 'shared-clip.mp3');
    writeFileSync(clipFile, clipBytes);
    const clipSeconds = decodedSeconds(clipFile);
    // The recording runs on the wall clock: a moment the player waited for audio (its buffer refilling on a
    // busy machine) is in the recording but not in what was heard, so the clip is at most as long.
    expect(clipSeconds).toBeLessThan(recordedSeconds + 1);
    expect(Math.abs(clipSeconds - (heardAtStop - heardAtStart))).toBeLessThan(1.5);

    // Shared again: the same clip, not a new one.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await item.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(message);
    expect(problems).toEqual([]);
    await context.close();
  });
});
