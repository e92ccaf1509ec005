import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema.js';
import { renderPage } from '../../plugins/client.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { sourcePassword, SOURCE_PASSWORD_KEY } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ STATION_NAME: 'Grace Live Radio', SOURCE_PASSWORD: 'from-the-environment' });
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  admin = (await addStaff(t.db, 'presenter', 'admin')).headers;
});
afterAll(() => t.close());

const next = {
  name: 'Hope FM',
  networkName: 'Hope Network',
  networkUrl: 'https://hope.example.org',
  timeZone: 'Africa/Lagos',
};

describe('the Station tab', () => {
  it('starts from the environment and applies saved details at once to the API and the pages', async () => {
    const current = await t.app.inject({ method: 'GET', url: '/api/admin/station', headers: superuser });
    expect(current.json()).toMatchObject({ name: 'Grace Live Radio', timeZone: 'UTC' });

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/station',
      headers: superuser,
      payload: { ...next, name: ' Hope FM ' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ ...next, links: {} });
    expect((await t.app.inject({ method: 'GET', url: '/api/station' })).json()).toEqual({
      ...next,
      links: {},
    });
    expect(t.app.station()).toEqual({ ...next, links: {} });
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain('Hope FM');
  });

  it('refuses bad values with a clear message and keeps the saved ones', async () => {
    for (const payload of [
      { ...next, name: '' },
      { ...next, networkUrl: 'ftp://x' },
      { ...next, timeZone: 'Mars/Olympus' },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/station',
        headers: superuser,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/name|address|Time zone/);
    }
    expect(t.app.station()).toEqual({ ...next, links: {} });
  });

  it('rotates the live-input password into the settings table', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/admin/station/source-password',
      headers: superuser,
    });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/admin/station/source-password',
      headers: superuser,
    });
    const a = first.json().sourcePassword;
    const b = second.json().sourcePassword;
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(b).not.toBe(a);
    // The radio engine's own reader sees the new password (it wins over SOURCE_PASSWORD).
    expect(await sourcePassword(t.db, t.config)).toBe(b);
    const [row] = await t.db.select().from(settings).where(eq(settings.key, SOURCE_PASSWORD_KEY));
    expect(row!.value).toBe(b);
  });
});

/** The footer and social band of the prerendered home page, as scripts/prerender.mjs leaves them. */
const FOOTER_TEMPLATE =
  '<a href="{{STATION_LINK:facebook}}">Facebook</a><a href="{{STATION_LINK:youtube}}">YouTube</a>' +
  '<a href="{{STATION_LINK:instagram}}">Instagram</a><a href="{{STATION_LINK:liveStream}}">Live Stream</a>' +
  '<a href="{{STATION_LINK:privacy}}">Privacy</a><a href="{{STATION_LINK:terms}}">Terms</a>' +
  '<a href="mailto:{{CONTACT_EMAIL}}">{{CONTACT_EMAIL}}</a>{{STATION_LINK:unknown}}';

const put = (payload: unknown, headers = superuser) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/station', headers, payload: payload as object });

describe("the Station tab's links (footer and social band)", () => {
  it("keeps SPEC.md's defaults until set: social links #, privacy and terms on the network site", () => {
    const html = renderPage(FOOTER_TEMPLATE, { ...next, links: {} }, 'https://radio.example/');
    expect(html).toBe(
      '<a href="#">Facebook</a><a href="#">YouTube</a><a href="#">Instagram</a><a href="#">Live Stream</a>' +
        '<a href="https://hope.example.org/privacy">Privacy</a><a href="https://hope.example.org/terms">Terms</a>' +
        '<a href="mailto:info@hope.example.org">info@hope.example.org</a>{{STATION_LINK:unknown}}',
    );
  });

  it('saves the links a superuser sets; the served page and /api/station carry them, an unset one stays #', async () => {
    const links = {
      facebook: ' https://facebook.com/hopefm ',
      youtube: 'https://www.youtube.com/@hopefm?a=1&b="2"',
      instagram: '',
      liveStream: 'https://listen.hope.example.org/live',
      privacy: 'https://hope.example.org/legal/privacy',
      terms: 'https://hope.example.org/legal/terms',
      contactEmail: 'studio@hope.example.org',
    };
    const saved = await put({ ...next, links });
    expect(saved.statusCode, saved.body).toBe(200);
    const { instagram: _unset, ...stored } = { ...links, facebook: 'https://facebook.com/hopefm' };
    expect(saved.json().links).toEqual(stored);
    expect((await t.app.inject({ url: '/api/station' })).json().links).toEqual(stored);

    const html = renderPage(FOOTER_TEMPLATE, t.app.station(), 'https://radio.example/');
    expect(html).toBe(
      '<a href="https://facebook.com/hopefm">Facebook</a>' +
        '<a href="https://www.youtube.com/@hopefm?a=1&amp;b=&quot;2&quot;">YouTube</a>' +
        '<a href="#">Instagram</a><a href="https://listen.hope.example.org/live">Live Stream</a>' +
        '<a href="https://hope.example.org/legal/privacy">Privacy</a>' +
        '<a href="https://hope.example.org/legal/terms">Terms</a>' +
        '<a href="mailto:studio@hope.example.org">studio@hope.example.org</a>{{STATION_LINK:unknown}}',
    );
    // The embedded station details carry them too, for the page's script.
    const config = renderPage('{{STATION_CONFIG}}', t.app.station(), 'https://radio.example/');
    expect(config).toContain('"contactEmail":"studio@hope.example.org"');

    // Cleared again: back to the defaults.
    expect((await put({ ...next, links: { facebook: '', contactEmail: null } })).json().links).toEqual({});
  });

  it.each([
    [
      'a javascript: address',
      { facebook: 'javascript:alert(1)' },
      'Facebook address must be an http(s) address',
    ],
    [
      'a data: address',
      { liveStream: 'data:text/html,hi' },
      'Live Stream address must be an http(s) address',
    ],
    ['an ftp address', { privacy: 'ftp://hope.example.org/p' }, 'Privacy policy address must be an http(s)'],
    ['a relative path', { terms: '/terms' }, 'Terms of service address must be an http(s)'],
    ['a line break', { youtube: 'https://youtube.com/\nx' }, 'YouTube address must be on one line'],
    ['a carriage return', { instagram: 'https://instagram.com/a\rb' }, 'must be on one line'],
    ['a control character', { facebook: 'https://facebook.com/\u0007' }, 'without control characters'],
    ['a space in the host', { facebook: 'https://face book.com/' }, 'must be an http(s) address'],
    ['a NUL', { terms: 'https://t.example/\u0000' }, 'Terms of service address must be on one line'],
    ['an address over 500', { privacy: `https://p.example/${'a'.repeat(500)}` }, 'at most 500 characters'],
    ['a number', { facebook: 7 }, 'Facebook address must be text'],
    ['an e-mail with a subject', { contactEmail: 'a@b.org?subject=hi' }, 'Contact e-mail must be an address'],
    ['an e-mail with a copy', { contactEmail: 'a@b.org&cc=x@y.org' }, 'Contact e-mail must be an address'],
    ['an e-mail with a space', { contactEmail: 'a b@c.org' }, 'Contact e-mail must be an address'],
    [
      'an e-mail on two lines',
      { contactEmail: 'a@b.org\nBcc: x@y.org' },
      'Contact e-mail must be on one line',
    ],
    ['a mailto: address', { contactEmail: 'mailto:a@b.org' }, 'Contact e-mail must be an address'],
    ['no domain', { contactEmail: 'studio@localhost' }, 'Contact e-mail must be an address'],
  ])('refuses %s with a clear 400 and keeps what was saved', async (_case, links, message) => {
    const before = t.app.station();
    const res = await put({ ...next, links });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(t.app.station()).toEqual(before);
  });

  it('refuses links that are not an object', async () => {
    const res = await put({ ...next, links: ['https://facebook.com/'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('links must be an object of addresses');
  });

  it('lets only a superuser set them', async () => {
    const before = t.app.station();
    const body = { ...next, links: { facebook: 'https://facebook.com/taken' } };
    expect((await put(body, {})).statusCode).toBe(401);
    expect((await put(body, admin)).statusCode).toBe(403);
    expect(t.app.station()).toEqual(before);
  });

  it('answers any links with a 2xx or a 4xx carrying a message; what it keeps is an http(s) address or a plain e-mail', async () => {
    const value = fc.oneof(
      fc.constantFrom(null, 0, true, '', ' ', '#', 'https://', 'https://x', 'https://x.org/a b', 'a@b.co'),
      fc.webUrl(),
      fc.emailAddress(),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ maxLength: 20 }).map((tail) => `https://example.org/${tail}`),
    );
    const names = ['facebook', 'youtube', 'instagram', 'liveStream', 'privacy', 'terms', 'contactEmail'];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 4 }), async (links) => {
        const res = await put({ ...next, links });
        expect(res.statusCode, `${JSON.stringify(links)} -> ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(typeof res.json().message).toBe('string');
          return;
        }
        for (const [name, kept] of Object.entries(res.json().links as Record<string, string>)) {
          expect(kept).not.toMatch(/[\p{Cc}]/u);
          if (name === 'contactEmail') expect(kept).toMatch(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$/);
          else expect(kept).toMatch(/^https?:\/\/\S+$/i);
        }
      }),
      { numRuns: 60 },
    );
  });
});
