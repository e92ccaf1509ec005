import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRAYER_FORM_PATH, PRAYER_TEXT } from '../../../common/prayer.js';
import { prayerRequests } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let ip = 0;

/** The home page's prayer form as the browser posts it, each from its own address unless told. */
const postForm = (fields: Record<string, string> | string, address = `10.2.0.${++ip}`) =>
  t.app.inject({
    method: 'POST',
    url: PRAYER_FORM_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'attacker.example' },
    payload: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    remoteAddress: address,
  });
const stored = () => t.db.select().from(prayerRequests);

beforeAll(async () => {
  t = await createTestApp({ STATION_NAME: 'Hope & Glory <FM>' });
});
afterAll(() => t.close());

describe(`POST ${PRAYER_FORM_PATH} (the prayer form posted before the page's code arrived)`, () => {
  it("stores the request private and trimmed, and answers a page with SPEC.md's thanks", async () => {
    const res = await postForm({ name: ' Anna ', request: '  For my brother.  ', isPrivate: 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<h1>${PRAYER_TEXT.submittedTitle}</h1>`);
    expect(res.body).toContain(PRAYER_TEXT.submitted);
    expect(res.body).toContain('Hope &amp; Glory &lt;FM&gt;');
    expect(res.body).toContain('<a href="/">Back to the home page</a>');
    // Links stay relative: the Host a request came in with is never written into a page.
    expect(res.body).not.toContain('attacker.example');
    expect(await stored()).toContainEqual(
      expect.objectContaining({ name: 'Anna', request: 'For my brother.', isPrivate: 'true' }),
    );
  });

  it('stores it private even when the post says otherwise', async () => {
    const res = await postForm({ request: 'For rain.', isPrivate: 'false' });
    expect(res.statusCode).toBe(200);
    expect(await stored()).toContainEqual(
      expect.objectContaining({ request: 'For rain.', isPrivate: 'true' }),
    );
  });

  it('answers a blank request with the form again: the error in place and what was typed kept, escaped', async () => {
    const before = (await stored()).length;
    const res = await postForm({ name: 'Ann <& "co">', request: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<form method="post" action="${PRAYER_FORM_PATH}" novalidate>`);
    expect(res.body).toMatch(
      /<textarea id="field-request" name="request" placeholder="How can we pray for you\?" aria-invalid="true" aria-describedby="field-request-error" rows="4">/,
    );
    expect(res.body).toContain(
      `<p id="field-request-error" class="error" role="alert">${PRAYER_TEXT.blank}</p>`,
    );
    expect(res.body).toContain('value="Ann &lt;&amp; &quot;co&quot;&gt;"');
    expect(res.body).toContain('<button type="submit">Submit Prayer Request</button>');
    expect(await stored()).toHaveLength(before);
  });

  it.each([
    ['no request', {}, PRAYER_TEXT.blank, 'request'],
    ['a blank request', { request: ' \n ' }, PRAYER_TEXT.blank, 'request'],
    ['a request over 5,000 characters', { request: 'x'.repeat(5001) }, 'at most 5,000 characters', 'request'],
    [
      'a name over 100 characters',
      { request: 'Pray', name: 'n'.repeat(101) },
      'at most 100 characters',
      'name',
    ],
    ['a NUL in the request', { request: 'Pray\u0000' }, 'cannot be stored', 'request'],
    ['isPrivate that is not a flag', { request: 'Pray', isPrivate: 'yes' }, 'isPrivate must be', undefined],
  ])('refuses %s with a 400 page saying why, and stores nothing', async (_case, fields, message, field) => {
    const before = (await stored()).length;
    const res = await postForm(fields);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const alert = /<p (?:id="field-(\w+)-error" )?class="error" role="alert">([^<]*)<\/p>/.exec(res.body);
    expect(alert?.[2]).toContain(message.replace(/'/g, '&#39;'));
    expect(alert?.[1]).toBe(field);
    expect(await stored()).toHaveLength(before);
  });

  it.each([
    ['JSON', 'application/json', '{"request":"Pray"}', 415],
    ['multipart', 'multipart/form-data; boundary=x', '--x--', 415],
    ['a body over 64 KB', 'application/x-www-form-urlencoded', `request=${'x'.repeat(70_000)}`, 413],
  ])('answers %s with a page and a 4xx, storing nothing', async (_case, type, payload, status) => {
    const before = (await stored()).length;
    const res = await t.app.inject({
      method: 'POST',
      url: PRAYER_FORM_PATH,
      headers: { 'content-type': type },
      payload,
      remoteAddress: `10.2.1.${++ip}`,
    });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(PRAYER_TEXT.failed);
    expect(await stored()).toHaveLength(before);
  });

  it('answers any form body with a page and a 2xx or 4xx, never a 5xx, and never echoes markup', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 80 }),
          fc.dictionary(
            fc.constantFrom('name', 'request', 'isPrivate', '__proto__', 'x'),
            fc.string({ maxLength: 40 }),
          ),
        ),
        async (body) => {
          const probe = typeof body === 'string' ? body : { ...body, name: `<i>${body.name ?? ''}` };
          const res = await postForm(probe);
          expect(res.statusCode).toBeLessThan(500);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(res.body).not.toContain('<i>');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('counts against the same hourly limit as the JSON API, and a refused request is shown again as typed', async () => {
    const address = '10.9.9.9';
    for (let i = 0; i < 5; i++)
      expect((await postForm({ request: `Pray ${i}` }, address)).statusCode).toBe(200);
    for (let i = 5; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/prayer-requests',
        payload: { request: `Pray ${i}` },
        remoteAddress: address,
      });
      expect(res.statusCode).toBe(201);
    }
    const refused = await postForm({ request: 'One more' }, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain(PRAYER_TEXT.failed);
    expect(refused.body).toContain('>One more</textarea>');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/prayer-requests',
      payload: { request: 'And one more' },
      remoteAddress: address,
    });
    expect(json.statusCode).toBe(429);
    expect(json.json().message).toMatch(/Rate limit exceeded/);
  });

  it("is allowed by the home page's Content-Security-Policy, which lets forms post to the station only", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
  });
});
