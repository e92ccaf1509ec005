import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';
import { ownBrowserAndStation, streamClock } from './station';

const base = inject('stationUrl');
const work = mkdtempSync(path.join(tmpdir(), 'listening-e2e-'));

/** Seconds of audio a file decodes to (ffprobe), failing if it does not decode. */
function decodedSeconds(file: string): number {
  execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  return Number(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      file,
    ]).toString(),
  );
}

const audioTime = (page: Page) =>
  page.evaluate(
    () => document.querySelector<HTMLAudioElement>('audio[data-station-player]')?.currentTime ?? -1,
  );

/** Waits until the player's audio time moves forward by `seconds`. */
async function expectAudioAdvancing(page: Page, seconds = 1, timeout = 20_000) {
  const start = await audioTime(page);
  await expect.poll(() => audioTime(page), { timeout }).toBeGreaterThan(start + seconds);
}

async function startPlaying(page: Page, url: string) {
  await visit(page, url);
  await page.getByRole('button', { name: 'Turn On' }).click();
  await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
}

// Network failures (and 503s while the station starts up again) are expected while the network is down
// or the station restarts.
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/net::ERR_|ERR_INTERNET_DISCONNECTED|WebSocket|status of 503/.test(p));

describe('listening', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("press play: the audio's time advances and the button turns red 'Turn Off'", async () => {
    const { page, context, problems } = await openPage(browser);
    await startPlaying(page, base);
    await expectAudioAdvancing(page, 1.5);
    const button = page.getByRole('button', { name: 'Turn Off' });
    expect(await button.getAttribute('title')).toBe('Turn Off');
    expect(await button.getAttribute('class')).toContain('bg-red-600');
    await expect.poll(() => page.getByText('● Live streaming now').count()).toBe(1);
    // The page knows which second of the broadcast it is playing, from the metadata heard with the audio.
    const banner = page.getByRole('region', { name: 'Live player' });
    await expect.poll(() => banner.getAttribute('data-stream-clock')).toMatch(/^\d+\.\d$/);
    const heard = Number(await banner.getAttribute('data-stream-clock'));
    const { stream_clock } = (await (await fetch(`${base}/api/radio/current`)).json()) as {
      stream_clock: number;
    };
    expect(heard).toBeGreaterThan(stream_clock - 15);
    expect(heard).toBeLessThanOrEqual(stream_clock + 1);
    await button.click();
    expect(await page.getByRole('button', { name: 'Turn On' }).getAttribute('class')).toContain(
      'bg-emerald-500',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('volume and mute labels', async () => {
    const { page, context, problems } = await openPage(browser);
    await visit(page, base);
    const label = page.getByTestId('volume-label');
    await expect.poll(() => label.textContent()).toBe('75%');
    await page.getByRole('slider', { name: 'Volume' }).fill('40');
    await expect.poll(() => label.textContent()).toBe('40%');
    await page.getByRole('button', { name: 'Mute' }).click();
    await expect.poll(() => label.textContent()).toBe('0%');
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expect.poll(() => label.textContent()).toBe('75%');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("going offline shows 'Offline'; coming back recovers playback by itself", async () => {
    const { page, context, problems } = await openPage(browser);
    await startPlaying(page, base);
    await expectAudioAdvancing(page, 1);
    await context.setOffline(true);
    // innerText: the words shown (the indicator holds both badges and the page shows one).
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Offline');
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
    await expectAudioAdvancing(page, 2, 30_000);
    await expect
      .poll(() => page.getByRole('status').innerText(), { timeout: 40_000 })
      .toMatch(/High Speed|Slow Connection/);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('a server clip of the last 10 s is a valid MP3 of about 10 s', async () => {
    // The station must have been on the air for at least that long.
    await expect.poll(() => streamClock(base), { timeout: 20_000 }).toBeGreaterThan(12);
    const res = await fetch(`${base}/api/clips`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: 10 }),
    });
    expect(res.status).toBe(201);
    const clip = (await res.json()) as { id: string; audioUrl: string; shareUrl: string; duration: number };
    expect(clip.duration).toBe(10);
    const audio = await fetch(`${base}${clip.audioUrl}?download=1`);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(audio.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.mp3"$/);
    const file = path.join(work, 'server-clip.mp3');
    writeFileSync(file, Buffer.from(await audio.arrayBuffer()));
    expect(Math.abs(decodedSeconds(file) - 10)).toBeLessThan(0.6);
    const page = await fetch(clip.shareUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`/api/clips/${clip.id}/audio`);
  });
});

describe('the station restarting mid-play', () => {
  const own = ownBrowserAndStation();

  it('is survived by reconnecting', async () => {
    const { page, context, problems } = await openPage(own.browser);
    await startPlaying(page, own.station.url);
    await expectAudioAdvancing(page, 1);
    await own.station.restart();
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
    await expectAudioAdvancing(page, 2, 30_000);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 90_000);
});
