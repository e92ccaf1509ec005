import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from './plugins/client.js';
import { createTestApp } from './test/helpers.js';

describe('routes and status codes', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ STATION_NAME: 'Hope </script><b>FM' });
  });
  afterAll(() => t.close());

  it.each(['/', '/dashboard-mgmt'])('%s answers 200 with the page', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it.each(['/no-such-page', '/dashboard-mgmt/extra', '/programs'])(
    '%s answers 404 with the client page',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
    },
  );

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['DELETE', '/api/programs/today/x'],
  ] as const)('%s %s answers a JSON 404', async (method, url) => {
    const res = await t.app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.stringContaining('Not found') });
  });

  it('sends a strict Content-Security-Policy and the usual security headers', async () => {
    const res = await t.app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the public station details', async () => {
    const res = await t.app.inject({ url: '/api/station' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Hope </script><b>FM', timeZone: 'UTC' });
  });
});

describe('renderPage', () => {
  const template =
    '<title>{{TITLE}}</title><link rel="canonical" href="{{PAGE_URL}}"><meta content="{{IMAGE_URL}}">{{STATION_CONFIG}}';
  const station = {
    name: 'Hope </script>"FM"',
    networkName: 'N & Co',
    networkUrl: 'https://n.example',
    timeZone: 'UTC',
  };

  it('escapes the station details into HTML and the embedded JSON', () => {
    const html = renderPage(template, station, 'https://radio.example/');
    expect(html).toContain('<title>Hope &lt;/script&gt;&quot;FM&quot;');
    expect(html).toContain('href="https://radio.example/"');
    expect(html).toContain('content="https://radio.example/og-image.png"');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const json = html.slice(html.indexOf('>', html.indexOf('<script')) + 1, html.lastIndexOf('</script>'));
    expect(JSON.parse(json)).toEqual(station);
  });

  it("fills the prerendered home page's tokens: network links, contact address, names in share links", () => {
    const html = renderPage(
      '<a href="{{NETWORK_LINK:about}}">{{NETWORK_NAME}}</a><a href="{{NETWORK_LINK:}}"></a>' +
        '<a href="mailto:{{CONTACT_EMAIL}}"></a><a href="?text={{STATION_NAME_URI}}%20{{NETWORK_NAME_URI}}"></a>' +
        '{{UNKNOWN}}{{NETWORK_LINK:Bad Path}}',
      { ...station, networkUrl: 'https://www.n.example/radio' },
      'https://radio.example/',
    );
    expect(html).toBe(
      '<a href="https://www.n.example/radio/about">N &amp; Co</a><a href="https://www.n.example/radio/"></a>' +
        '<a href="mailto:info@n.example"></a><a href="?text=Hope%20%3C%2Fscript%3E%22FM%22%20N%20%26%20Co"></a>' +
        '{{UNKNOWN}}{{NETWORK_LINK:Bad Path}}',
    );
  });
});
