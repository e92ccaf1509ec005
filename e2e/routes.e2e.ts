import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage, visit } from './browser';

const base = inject('stationUrl');

describe('routes and status codes', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it.each([
    ['/', 200],
    ['/dashboard-mgmt', 200],
    ['/no-such-page', 404],
  ])('%s answers %i', async (path, status) => {
    const { page, context } = await openPage(browser);
    const response = await visit(page, base + path);
    expect(response?.status()).toBe(status);
    await context.close();
  });

  it('shows Page Not Found on an unknown page', async () => {
    const { page, context, problems } = await openPage(browser);
    await visit(page, `${base}/no-such-page`);
    await expect.poll(() => page.getByText('Page Not Found').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers a JSON 404 for an unknown API path', async () => {
    const res = await fetch(`${base}/api/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });

  it('never serves the raw page template, and names the installed app after the station', async () => {
    expect((await fetch(`${base}/index.html`)).status).toBe(404);
    const manifest = await (await fetch(`${base}/manifest.webmanifest`)).json();
    expect(manifest.short_name).toBe('Grace Live Radio');
    expect(manifest.icons.length).toBeGreaterThan(0);
  });

  it('serves hashed assets with long-lived caching and compression', async () => {
    const html = await (await fetch(base)).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const res = await fetch(base + script, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('content-encoding')).toMatch(/br|gzip/);
  });
});
