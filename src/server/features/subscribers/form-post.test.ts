import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIRMATION_NOT_SENT_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  INVALID_EMAIL,
  NEWSLETTER_FORM_PATH,
  NEWSLETTER_TEXT,
} from '../../../common/subscribers.js';
import { emailSubscribers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { freePort } from '../../test/icecast-server.js';
import { startSmtpServer } from '../../test/smtp-server.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let ip = 0;

/** The home page's newsletter form as the browser posts it, each from its own address unless told. */
const postForm = (app: typeof t.app, fields: Record<string, string> | string, address = `10.3.0.${++ip}`) =>
  app.inject({
    method: 'POST',
    url: NEWSLETTER_FORM_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'attacker.example' },
    payload: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    remoteAddress: address,
  });
const rows = (db = t.db) => db.select().from(emailSubscribers);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe(`POST ${NEWSLETTER_FORM_PATH} (the newsletter form posted before the page's code arrived)`, () => {
  it("subscribes and answers a page with SPEC.md's 'Thank you for subscribing!'", async () => {
    const res = await postForm(t.app, { email: ' Lydia@Example.org ', name: ' Lydia ' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<h1>${NEWSLETTER_TEXT.thanks}</h1>`);
    expect(res.body).toContain(NEWSLETTER_TEXT.subscribed);
    expect(res.body).toContain('<a href="/">Back to the home page</a>');
    expect(res.body).not.toContain('attacker.example');
    expect(await rows()).toContainEqual(
      expect.objectContaining({ email: 'lydia@example.org', name: 'Lydia', status: 'confirmed' }),
    );
  });

  it('answers an invalid address with the form again: the error in place and what was typed kept', async () => {
    const before = (await rows()).length;
    const res = await postForm(t.app, { email: 'lydia<at>example', name: 'Lydia' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`<form method="post" action="${NEWSLETTER_FORM_PATH}" novalidate>`);
    expect(res.body).toContain(
      '<input id="field-email" name="email" autocomplete="email" aria-invalid="true" aria-describedby="field-email-error" type="email" value="lydia&lt;at&gt;example">',
    );
    expect(res.body).toContain(`<p id="field-email-error" class="error" role="alert">${INVALID_EMAIL}</p>`);
    expect(res.body).toContain('value="Lydia"');
    expect(await rows()).toHaveLength(before);
  });

  it.each([
    ['no address', {}, INVALID_EMAIL, 'email'],
    ['an empty address', { email: '' }, INVALID_EMAIL, 'email'],
    ['an address without a domain', { email: 'ruth@' }, INVALID_EMAIL, 'email'],
    ['an address over 254 characters', { email: `${'r'.repeat(250)}@example.org` }, INVALID_EMAIL, 'email'],
    ['a name over 100 characters', { email: 'a@example.org', name: 'n'.repeat(101) }, 'at most 100', 'name'],
    ['a NUL in the name', { email: 'a@example.org', name: 'Ru\u0000th' }, 'cannot be stored', 'name'],
  ])('refuses %s with a 400 page saying why, and stores nothing', async (_case, fields, message, field) => {
    const before = (await rows()).length;
    const res = await postForm(t.app, fields);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const alert = /<p id="field-(\w+)-error" class="error" role="alert">([^<]*)<\/p>/.exec(res.body);
    expect(alert?.[1]).toBe(field);
    expect(alert?.[2]).toContain(message);
    expect(await rows()).toHaveLength(before);
  });

  it('answers another content type with a page and a 415, storing nothing', async () => {
    const before = (await rows()).length;
    const res = await t.app.inject({
      method: 'POST',
      url: NEWSLETTER_FORM_PATH,
      payload: { email: 'json@example.org' },
      remoteAddress: `10.3.1.${++ip}`,
    });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Unsupported content type');
    expect(await rows()).toHaveLength(before);
  });

  it('answers any form body with a page and a 2xx or 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 80 }),
          fc.dictionary(fc.constantFrom('email', 'name', 'constructor', 'x'), fc.string({ maxLength: 40 })),
        ),
        async (body) => {
          const res = await postForm(t.app, body);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        },
      ),
      { numRuns: 60 },
    );
  });

  it("counts against the same hourly limit as the JSON API, and shows the limit's message with the address kept", async () => {
    const address = '10.9.9.8';
    for (let i = 0; i < 10; i++) {
      const res =
        i % 2
          ? await postForm(t.app, { email: `limit${i}@example.org` }, address)
          : await t.app.inject({
              method: 'POST',
              url: '/api/email-subscribe',
              payload: { email: `limit${i}@example.org` },
              remoteAddress: address,
            });
      expect(res.statusCode).toBeLessThan(300);
    }
    const refused = await postForm(t.app, { email: 'one.more@example.org' }, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/role="alert">Rate limit exceeded/);
    expect(refused.body).toContain('value="one.more@example.org"');
    expect(await rows()).not.toContainEqual(expect.objectContaining({ email: 'one.more@example.org' }));
  });
});

// Each starts a station of its own with SMTP_URL set, which takes a while on a busy machine.
describe('the newsletter form posted with double opt-in on', { timeout: 90_000 }, () => {
  it('tells the subscriber to look for the confirmation link', async () => {
    const smtp = await startSmtpServer();
    const station = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://radio.example.org' });
    try {
      const res = await postForm(station.app, { email: 'naomi@example.org' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<h1>${NEWSLETTER_TEXT.thanks}</h1>`);
      expect(res.body).toContain(CONFIRMATION_SENT_MESSAGE.replace(/'/g, '&#39;'));
      expect(smtp.received).toHaveLength(1);
    } finally {
      await station.close();
      await smtp.close();
    }
  });

  it('says so, with the form as typed, when the confirmation could not be sent', async () => {
    const closed = await freePort();
    const station = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${closed}`,
      PUBLIC_URL: 'https://radio.example.org',
    });
    try {
      const res = await postForm(station.app, { email: 'orpah@example.org', name: 'Orpah' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain(`role="alert">${CONFIRMATION_NOT_SENT_MESSAGE}</p>`);
      expect(res.body).toContain('value="orpah@example.org"');
      expect(await rows(station.db)).toEqual([
        expect.objectContaining({ status: 'pending', isActive: 'false' }),
      ]);
    } finally {
      await station.close();
    }
  });
});
