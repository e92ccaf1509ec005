import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATION_NOT_SENT_MESSAGE, CONFIRMATION_SENT_MESSAGE } from '../../../common/subscribers.js';
import { emailSubscribers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { freePort } from '../../test/icecast-server.js';
import { startSmtpServer, type ReceivedMail } from '../../test/smtp-server.js';
import { addStaff } from '../../test/staff.js';
import { signingSecret } from '../settings/service.js';
import { confirmToken, unsubscribeToken } from './tokens.js';

const PUBLIC_URL = 'https://radio.example.org';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let ip = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, STATION_NAME: 'Hope & Glory <FM>' });
  staff = (await addStaff(t.db, 'newsdesk', 'admin')).headers;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

// Each subscription from its own address, so the hourly limit per address stays out of the way.
const subscribe = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/email-subscribe', payload, remoteAddress: `10.1.0.${++ip}` });
const row = async (email: string) =>
  (await t.db.select().from(emailSubscribers).where(eq(emailSubscribers.email, email)))[0];
const allRows = () => t.db.select().from(emailSubscribers).orderBy(emailSubscribers.email);

/** The path of the station's link in a text, the origin checked. */
function linkIn(text: string, path: string): string {
  const match = new RegExp(`${PUBLIC_URL}(${path}\\?token=[\\w.-]+)`).exec(text);
  expect(match, `a ${path} link`).not.toBeNull();
  return match![1]!;
}
const confirmLink = (mail: ReceivedMail) => linkIn(mail.parts['text/plain']!, '/newsletter/confirm');
const unsubscribeLink = (mail: ReceivedMail) => linkIn(mail.parts['text/plain']!, '/unsubscribe');

describe('double opt-in with SMTP_URL set', () => {
  it('takes an address through pending, confirmed, unsubscribed and pending again', async () => {
    const res = await subscribe({ email: 'Ruth@Example.org', name: 'Ruth' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: CONFIRMATION_SENT_MESSAGE });
    expect(await row('ruth@example.org')).toMatchObject({ status: 'pending', isActive: 'false' });

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(['ruth@example.org']);
    expect(mail.headers.get('from')).toContain('<newsletter@radio.example.org>');
    expect(mail.headers.get('subject')).toContain('Please confirm your subscription');
    const unsubscribe = unsubscribeLink(mail);
    expect(mail.headers.get('list-unsubscribe')).toBe(`<${PUBLIC_URL}${unsubscribe}>`);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const confirm = confirmLink(mail);
    const html = mail.parts['text/html']!;
    expect(html).toContain(`href="${PUBLIC_URL}${confirm}"`);
    expect(html).toContain(`href="${PUBLIC_URL}${unsubscribe}"`);
    expect(html).toContain('Hope &amp; Glory &lt;FM&gt;');
    expect(html).not.toContain('Ruth');

    const listed = (await t.app.inject({ url: '/api/email-subscribers', headers: staff })).json();
    expect(listed).toContainEqual(
      expect.objectContaining({ email: 'ruth@example.org', isActive: false, status: 'pending' }),
    );

    const confirmed = await t.app.inject({ url: confirm });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['content-type']).toContain('text/html');
    expect(confirmed.headers['content-security-policy']).toContain("default-src 'self'");
    expect(confirmed.headers['cache-control']).toBe('no-store');
    expect(confirmed.body).toContain('Subscription confirmed');
    expect(confirmed.body).toContain('Hope &amp; Glory &lt;FM&gt;');
    expect(confirmed.body).not.toContain('<FM>');
    expect(await row('ruth@example.org')).toMatchObject({ status: 'confirmed', isActive: 'true' });
    // Opened again (a second click, a scanner): still confirmed, nothing else.
    expect((await t.app.inject({ url: confirm })).statusCode).toBe(200);

    // A GET only asks: mail scanners open links.
    const asked = await t.app.inject({ url: unsubscribe });
    expect(asked.statusCode).toBe(200);
    expect(asked.headers['content-security-policy']).toContain("form-action 'self'");
    expect(asked.body).toContain(`<form method="post" action="${unsubscribe}">`);
    expect(asked.body).toContain('Hope &amp; Glory &lt;FM&gt;');
    expect((await t.app.inject({ method: 'HEAD', url: unsubscribe })).statusCode).toBe(200);
    expect(await row('ruth@example.org')).toMatchObject({ status: 'confirmed', isActive: 'true' });

    // The page's button posts a form.
    const done = await t.app.inject({
      method: 'POST',
      url: unsubscribe,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You have been unsubscribed');
    expect(await row('ruth@example.org')).toMatchObject({ status: 'unsubscribed', isActive: 'false' });
    expect((await t.app.inject({ url: unsubscribe })).body).toContain('You are unsubscribed');

    // The old confirmation link does not undo an unsubscription.
    const stale = await t.app.inject({ url: confirm });
    expect(stale.statusCode).toBe(400);
    expect(await row('ruth@example.org')).toMatchObject({ status: 'unsubscribed', isActive: 'false' });

    expect((await subscribe({ email: 'ruth@example.org' })).statusCode).toBe(201);
    expect(await row('ruth@example.org')).toMatchObject({
      status: 'pending',
      isActive: 'false',
      name: 'Ruth',
    });
    expect(smtp.received).toHaveLength(2);
    expect((await t.app.inject({ url: confirmLink(smtp.received[1]!) })).statusCode).toBe(200);
    expect(await row('ruth@example.org')).toMatchObject({ status: 'confirmed', isActive: 'true' });
  });

  it("unsubscribes with RFC 8058's one-click POST, form-encoded or multipart", async () => {
    for (const [email, contentType, payload] of [
      ['oneclick@example.org', 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click'],
      [
        'multipart@example.org',
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      ],
    ] as const) {
      await subscribe({ email });
      const link = unsubscribeLink(smtp.received.at(-1)!);
      const res = await t.app.inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode).toBe(200);
      expect(await row(email)).toMatchObject({ status: 'unsubscribed', isActive: 'false' });
    }
  });

  it('sends the confirmation again to a pending address, and nothing to a confirmed one', async () => {
    await subscribe({ email: 'boaz@example.org', name: 'Boaz' });
    await subscribe({ email: 'boaz@example.org', name: 'Boaz of Bethlehem' });
    const toBoaz = smtp.received.filter((mail) => mail.envelopeTo.includes('boaz@example.org'));
    expect(toBoaz).toHaveLength(2);
    expect(await row('boaz@example.org')).toMatchObject({ status: 'pending', name: 'Boaz of Bethlehem' });

    await t.app.inject({ url: confirmLink(toBoaz[1]!) });
    const before = smtp.received.length;
    const again = await subscribe({ email: 'boaz@example.org', name: 'Someone else' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ message: CONFIRMATION_SENT_MESSAGE });
    expect(smtp.received).toHaveLength(before);
    expect(await row('boaz@example.org')).toMatchObject({
      status: 'confirmed',
      isActive: 'true',
      name: 'Boaz of Bethlehem',
    });
  });

  it('refuses forged, expired, foreign and garbage links with a 400 page and changes nothing', async () => {
    await subscribe({ email: 'naomi@example.org' });
    const naomi = (await row('naomi@example.org'))!;
    const confirm = confirmLink(smtp.received.at(-1)!).split('token=')[1]!;
    const unsubscribe = unsubscribeLink(smtp.received.at(-1)!).split('token=')[1]!;
    const secret = await signingSecret(t.db);
    const otherSecret = Buffer.alloc(32, 7);
    const eightDaysAgo = Date.now() - 8 * 24 * 60 * 60 * 1000;
    const [id, expires, signature] = confirm.split('.') as [string, string, string];
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

    const confirmCases: [string, string][] = [
      ['no token', ''],
      ['garbage', 'token=hello'],
      ['two tokens', `token=${confirm}&token=${confirm}`],
      ['an unsubscribe token', `token=${unsubscribe}`],
      ['a changed signature', `token=${id}.${expires}.${flip(signature, 0)}`],
      ['a later expiry', `token=${id}.${Number(expires) + 1}.${signature}`],
      ['another station', `token=${confirmToken(otherSecret, naomi)}`],
      ['an expired link', `token=${confirmToken(secret, naomi, eightDaysAgo)}`],
      [
        'an unknown subscriber',
        `token=${confirmToken(secret, { ...naomi, id: '00000000-0000-4000-8000-000000000000' })}`,
      ],
      ['another address', `token=${confirmToken(secret, { ...naomi, email: 'ruth@example.org' })}`],
      ['a NUL', 'token=%00'],
    ];
    const unsubscribeCases: [string, string][] = [
      ['no token', ''],
      ['garbage', 'token=..'],
      ['a confirm token', `token=${confirm}`],
      ['a changed signature', `token=${flip(unsubscribe, unsubscribe.length - 1)}`],
      ['another station', `token=${unsubscribeToken(otherSecret, naomi)}`],
      ['another address', `token=${unsubscribeToken(secret, { ...naomi, email: 'boaz@example.org' })}`],
    ];
    const before = await allRows();
    for (const [name, query] of confirmCases) {
      const res = await t.app.inject({ url: `/newsletter/confirm?${query}` });
      expect(res.statusCode, name).toBe(400);
      expect(res.headers['content-type'], name).toContain('text/html');
    }
    const expired = await t.app.inject({ url: `/newsletter/confirm?${confirmCases[7]![1]}` });
    expect(expired.body).toContain('This confirmation link has expired');
    for (const [name, query] of unsubscribeCases) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: `/unsubscribe?${query}` });
        expect(res.statusCode, `${method} ${name}`).toBe(400);
        expect(res.body, `${method} ${name}`).toContain('This link is not valid');
      }
    }
    expect(await allRows()).toEqual(before);
  });

  it('answers any token that is not exactly the one it sent with a 400, never a 5xx', async () => {
    await subscribe({ email: 'orpah@example.org' });
    const confirm = confirmLink(smtp.received.at(-1)!).split('token=')[1]!;
    const unsubscribe = unsubscribeLink(smtp.received.at(-1)!).split('token=')[1]!;
    const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const mutated = (token: string) =>
      fc
        .tuple(fc.nat({ max: token.length - 1 }), fc.constantFrom(...base64url, '.'))
        .map(([at, c]) => token.slice(0, at) + c + token.slice(at + 1))
        .filter((changed) => changed !== token);
    const before = await allRows();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(mutated(confirm), mutated(unsubscribe), fc.string({ unit: 'binary', maxLength: 120 })),
        async (token) => {
          const query = `token=${encodeURIComponent(token)}`;
          const answers = [
            await t.app.inject({ url: `/newsletter/confirm?${query}` }),
            await t.app.inject({ url: `/unsubscribe?${query}` }),
            await t.app.inject({ method: 'POST', url: `/unsubscribe?${query}` }),
          ];
          for (const res of answers) expect(res.statusCode).toBe(400);
        },
      ),
      { numRuns: 60 },
    );
    expect(await allRows()).toEqual(before);
  });

  it('answers 503 and leaves the address pending when the SMTP server refuses', async () => {
    smtp.control.refuse = true;
    try {
      const before = smtp.received.length;
      const res = await subscribe({ email: 'ruth.refused@example.org' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: CONFIRMATION_NOT_SENT_MESSAGE });
      expect(smtp.received).toHaveLength(before);
      expect(await row('ruth.refused@example.org')).toMatchObject({ status: 'pending', isActive: 'false' });
    } finally {
      smtp.control.refuse = false;
    }
  });
});

describe('double opt-in with the SMTP server unreachable', () => {
  it('answers 503 with the message and makes nothing active', async () => {
    const closed = await freePort();
    const u = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${closed}`, PUBLIC_URL });
    try {
      const res = await u.app.inject({
        method: 'POST',
        url: '/api/email-subscribe',
        payload: { email: 'lost@example.org' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: CONFIRMATION_NOT_SENT_MESSAGE });
      const rows = await u.db.select().from(emailSubscribers);
      expect(rows).toEqual([expect.objectContaining({ status: 'pending', isActive: 'false' })]);
    } finally {
      await u.close();
    }
  });
});
