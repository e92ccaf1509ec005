import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { startTransition, StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stationLink, type StationLinkName } from '../common/page-meta';
import { App } from './app/app';
import { FALLBACK_STATION, provideStation } from './lib/station';
import { prerenderPage } from './prerender';

// The station's details as the server fills them in (plugins/client.ts), for the fallback station.
function fillIn(html: string): string {
  return html
    .replaceAll('{{STATION_NAME}}', FALLBACK_STATION.name)
    .replaceAll('{{NETWORK_NAME}}', FALLBACK_STATION.networkName)
    .replaceAll('{{STATION_NAME_URI}}', encodeURIComponent(FALLBACK_STATION.name))
    .replaceAll('{{NETWORK_NAME_URI}}', encodeURIComponent(FALLBACK_STATION.networkName))
    .replaceAll('{{CONTACT_EMAIL}}', 'info@example.org')
    .replace(/\{\{NETWORK_LINK:([a-z0-9/-]*)\}\}/g, (_all, path: string) => `https://example.org/${path}`)
    .replace(/\{\{STATION_LINK:([A-Za-z]+)\}\}/g, (_all, name: StationLinkName) =>
      stationLink(name, FALLBACK_STATION),
    );
}

let root: Root | undefined;
afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  await vi.dynamicImportSettled();
});

describe('the prerendered home page', () => {
  it('holds every section, with tokens for the station details and no inline script', async () => {
    const html = await prerenderPage('/');
    for (const text of ['Live Broadcasting Now', 'Featured Content', 'Prayer Requests', 'Stay Connected']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('href="{{NETWORK_LINK:about}}"');
    expect(html).toContain('mailto:{{CONTACT_EMAIL}}');
    // The links staff set in the Station tab, filled in by the server for each request.
    for (const name of ['facebook', 'youtube', 'instagram', 'liveStream', 'privacy', 'terms']) {
      expect(html).toContain(`href="{{STATION_LINK:${name}}}"`);
    }
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/network\.invalid|link\.invalid/);
  });

  it('leaves no timer running once rendered, so the build process ends when its work ends', async () => {
    const running = new Map<unknown, number>();
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      callback: (...args: unknown[]) => void,
      delay = 0,
      ...args: unknown[]
    ) => {
      const handle = realSet(() => {
        running.delete(handle);
        callback(...args);
      }, delay);
      running.set(handle, delay);
      return handle;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation((handle) => {
      running.delete(handle);
      realClear(handle);
    });
    await prerenderPage('/');
    // React's scheduler may still hold a zero-delay task; anything longer would keep `node` waiting.
    expect([...running.values()].filter((delay) => delay > 100)).toEqual([]);
  });

  it('is taken over by React in the browser without a mismatch', async () => {
    const html = fillIn(await prerenderPage('/'));
    provideStation(FALLBACK_STATION);
    document.body.innerHTML = `<div id="root">${html}</div>`;
    const container = document.getElementById('root')!;
    const served = [...container.querySelectorAll('h1, h2, h3, button, a, input:not([aria-hidden])')];
    expect(served.length).toBeGreaterThan(50);
    const recoverable: unknown[] = [];
    // The server's and the browser's renderer share one module realm here (never in a real page): React
    // warns that both used the same contexts. Any other console error still fails the test.
    const errors: string[] = [];
    vi.mocked(console.error).mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (!text.includes('multiple renderers concurrently')) errors.push(text);
    });
    await act(async () => {
      startTransition(() => {
        root = hydrateRoot(
          container,
          <StrictMode>
            <App />
          </StrictMode>,
          { onRecoverableError: (error) => void recoverable.push(error) },
        );
      });
    });
    await act(() => vi.dynamicImportSettled());
    expect(recoverable).toEqual([]);
    expect(errors).toEqual([]);
    // React adopted the served elements: nothing the listener sees was thrown away and drawn again.
    expect(served.filter((element) => !element.isConnected)).toEqual([]);
  });
});
