import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CONNECTION_PROBE_INTERVAL_MS } from '../src/common/player';
import { openPage, visit } from './browser';
import { ownBrowserAndStation } from './station';

const streamRequests = (page: Page) => {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/stream') seen.push(request);
  });
  return () => seen.map((request) => request.method());
};

const connectionLabel = (page: Page) =>
  page.getByRole('region', { name: 'Live player' }).getByRole('status').innerText();

// Network failures while the station is down are expected.
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/net::ERR_|ERR_CONNECTION|WebSocket|status of 503/.test(p));

describe('the live player', () => {
  const own = ownBrowserAndStation();
  const figures = async () =>
    (await (await fetch(`${own.station.url}/api/radio/stats`)).json()) as {
      listeners: number;
      peakToday: number;
    };

  it('hovering Turn On warms the stream without counting a listener; play opens one stream connection; the lock screen gets real artwork sizes', async () => {
    const { page, context, problems } = await openPage(own.browser);
    const requests = streamRequests(page);
    await visit(page, own.station.url);
    const button = page.getByRole('button', { name: 'Turn On' });
    const warmed = page.waitForResponse((r) => new URL(r.url()).pathname === '/stream');
    await button.hover();
    // Answered means the station has seen it: a listener would be counted by now.
    expect((await warmed).status()).toBe(200);
    expect(requests()).toEqual(['HEAD']);
    expect(await figures()).toEqual({ listeners: 0, peakToday: 0 });

    await button.click();
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    expect(requests()).toEqual(['HEAD', 'GET']);
    expect(await figures()).toEqual({ listeners: 1, peakToday: 1 });

    // The lock screen's artwork: each size declared is an image of that size.
    const artwork = await page.evaluate(() =>
      Promise.all(
        (navigator.mediaSession.metadata?.artwork ?? []).map(async ({ src, sizes, type }) => {
          const blob = await (await fetch(src)).blob();
          const image = await createImageBitmap(blob);
          return { sizes, type, real: `${image.width}x${image.height}`, served: blob.type };
        }),
      ),
    );
    expect(artwork.map((a) => a.sizes)).toEqual([
      '96x96',
      '128x128',
      '192x192',
      '256x256',
      '384x384',
      '512x512',
      '1024x1024',
    ]);
    for (const image of artwork) expect([image.real, image.served]).toEqual([image.sizes, image.type]);
    expect(problems).toEqual([]);
    await context.close();
    await expect.poll(async () => (await figures()).listeners).toBe(0);
  });

  it("says 'Slow Connection' within seconds of the station's stream stopping, and 'High Speed' once it is back", async () => {
    const { page, context, problems } = await openPage(own.browser);
    await visit(page, own.station.url);
    await page.getByRole('button', { name: 'Turn On' }).click();
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => connectionLabel(page), { timeout: 35_000 }).toBe('High Speed');

    await own.station.kill();
    await expect.poll(() => connectionLabel(page), { timeout: 5_000 }).toBe('Slow Connection');
    await page.screenshot({ path: '/tmp/player-outage.png' });

    await own.station.restart();
    await page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 30_000 });
    // The station is back once its first audio is encoded, and the player once its buffer is in again. The
    // probe sent as it plays again may meet a station still starting (slower than 200 ms): the next one, within
    // the probe interval, finds it quick.
    await expect
      .poll(() => connectionLabel(page), { timeout: CONNECTION_PROBE_INTERVAL_MS + 15_000 })
      .toBe('High Speed');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  }, 120_000);

  it('F8 as the very first key press focuses the notification area', async () => {
    const { page, context, problems } = await openPage(own.browser);
    await visit(page, own.station.url);
    await page.keyboard.press('F8');
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label')),
      )
      .toBe('Notifications (F8)');
    expect(problems).toEqual([]);
    await context.close();
  });
});
