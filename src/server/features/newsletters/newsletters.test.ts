import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NEWSLETTER_NEEDS_SMTP,
  NO_CONFIRMED_SUBSCRIBERS,
  type NewsletterDetail,
  type NewsletterList,
} from '../../../common/newsletters.js';
import { emailSubscribers, newsletterDeliveries, newsletters } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { startSmtpServer, type ReceivedMail } from '../../test/smtp-server.js';
import { addStaff } from '../../test/staff.js';

const PUBLIC_URL = 'https://radio.example.org';
const draft = {
  subject: 'Easter services & <news>',
  body: 'Dear friends,\nwe are on air all weekend.\n\nThe schedule: https://radio.example.org/schedule.\n\n<b>Blessings</b>',
};
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;
let presenter: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp(
    { SMTP_URL: smtp.url, PUBLIC_URL, STATION_NAME: 'Hope FM' },
    { newsletterTimings: { retryDelaysMs: [20, 40], pollMs: 50 } },
  );
  staff = (await addStaff(t.db, 'newsdesk', 'admin')).headers;
  presenter = (await addStaff(t.db, 'pastor', 'presenter')).headers;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.delete(newsletters);
  await t.db.delete(emailSubscribers);
  smtp.received.length = 0;
  smtp.control.refuseOnly.clear();
  smtp.control.refusals.length = 0;
});

const addSubscribers = (rows: { email: string; status: 'pending' | 'confirmed' | 'unsubscribed' }[]) =>
  t.db
    .insert(emailSubscribers)
    .values(rows.map((r) => ({ ...r, isActive: r.status === 'confirmed' ? 'true' : 'false' })))
    .returning();
const send = (payload: object, headers = staff) =>
  t.app.inject({ method: 'POST', url: '/api/newsletters', headers, payload });
const detail = async (id: string) =>
  (await t.app.inject({ url: `/api/newsletters/${id}`, headers: staff })).json<NewsletterDetail>();
const untilDone = (id: string) =>
  vi.waitFor(
    async () => {
      const d = await detail(id);
      expect(d.status).toBe('done');
      return d;
    },
    { timeout: 20_000, interval: 50 },
  );
const to = (mail: ReceivedMail) => mail.envelopeTo[0]!;

describe('the newsletter, composed and previewed', () => {
  it('previews the e-mail a subscriber gets: escaped, links made links, the picture on PUBLIC_URL, the footer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletters/preview',
      headers: staff,
      payload: { ...draft, imageUrl: '/uploads/easter.webp' },
    });
    expect(res.statusCode).toBe(200);
    const { subject, html, text } = res.json<{ subject: string; html: string; text: string }>();
    expect(subject).toBe(draft.subject);
    expect(html).toContain('<img src="https://radio.example.org/uploads/easter.webp"');
    expect(html).toContain('<p>Dear friends,<br>\nwe are on air all weekend.</p>');
    expect(html).toContain(
      'The schedule: <a href="https://radio.example.org/schedule">https://radio.example.org/schedule</a>.',
    );
    expect(html).toContain('&lt;b&gt;Blessings&lt;/b&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain("subscribed to Hope FM's newsletter");
    expect(html).toContain('>Unsubscribe</a>');
    expect(text).toContain('<b>Blessings</b>');
    expect(text).toContain('Unsubscribe: https://radio.example.org/unsubscribe?token=');
  });

  it('sends a test to one address, marked as a test, with the one-click unsubscribe headers', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletters/test',
      headers: staff,
      payload: { ...draft, to: 'editor@example.org' },
    });
    expect(res.statusCode).toBe(200);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(['editor@example.org']);
    expect(mail.headers.get('subject')).toContain('[Test] Easter services');
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers.get('list-unsubscribe')).toMatch(
      /^<https:\/\/radio\.example\.org\/unsubscribe\?token=/,
    );
    expect(await t.db.select().from(newsletters)).toHaveLength(0);

    smtp.control.refuseOnly.add('nobody@example.org');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/newsletters/test',
      headers: staff,
      payload: { ...draft, to: 'nobody@example.org' },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('550 Mailbox unavailable');
  });
});

describe('sending to the subscribers', () => {
  it('reaches every confirmed address once, each with its own one-click unsubscribe, and records it', async () => {
    await addSubscribers([
      { email: 'ruth@example.org', status: 'confirmed' },
      { email: 'boaz@example.org', status: 'confirmed' },
      { email: 'naomi@example.org', status: 'pending' },
      { email: 'orpah@example.org', status: 'unsubscribed' },
    ]);
    const res = await send({ ...draft, perSecond: 50 });
    expect(res.statusCode).toBe(202);
    const done = await untilDone(res.json<{ id: string }>().id);
    expect(done).toMatchObject({
      createdBy: 'newsdesk',
      recipients: 2,
      sent: 2,
      failed: 0,
      left: 0,
      perSecond: 50,
    });
    expect(done.finishedAt).not.toBeNull();
    expect(smtp.received.map(to).sort()).toEqual(['boaz@example.org', 'ruth@example.org']);

    for (const mail of smtp.received) {
      expect(mail.headers.get('subject')).toBe('Easter services & <news>');
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const link = /<https:\/\/radio\.example\.org(\/unsubscribe\?token=[\w.-]+)>/.exec(
        mail.headers.get('list-unsubscribe')!,
      )![1]!;
      expect(mail.parts['text/html']).toContain(`href="${PUBLIC_URL}${link}"`);
      // RFC 8058's one-click POST, as a mail client sends it, unsubscribes that address only.
      const posted = await t.app.inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(posted.statusCode).toBe(200);
      const [row] = await t.db
        .select()
        .from(emailSubscribers)
        .where(eq(emailSubscribers.email, to(mail)));
      expect(row!.status).toBe('unsubscribed');
    }

    const list = (await t.app.inject({ url: '/api/newsletters', headers: staff })).json<NewsletterList>();
    expect(list.canSend).toBe(true);
    expect(list.newsletters).toEqual([expect.objectContaining({ subject: draft.subject, sent: 2 })]);
    // Nobody confirmed now: nothing to send.
    const none = await send(draft);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(NO_CONFIRMED_SUBSCRIBERS);
  });

  it('retries a refused address a few times, then reports it with the SMTP answer; the rest receive theirs', async () => {
    await addSubscribers(
      ['a', 'b', 'c', 'd', 'e'].map((name) => ({
        email: `${name}@example.org`,
        status: 'confirmed' as const,
      })),
    );
    smtp.control.refuseOnly.add('b@example.org');
    smtp.control.refuseOnly.add('d@example.org');
    const res = await send({ ...draft, perSecond: 100 });
    const done = await untilDone(res.json<{ id: string }>().id);
    expect(done).toMatchObject({ recipients: 5, sent: 3, failed: 2, left: 0 });
    expect(smtp.received.map(to).sort()).toEqual(['a@example.org', 'c@example.org', 'e@example.org']);
    // Three attempts each, then no more.
    expect(smtp.control.refusals.sort()).toEqual([
      ...Array(3).fill('b@example.org'),
      ...Array(3).fill('d@example.org'),
    ]);
    expect(done.failures).toEqual([
      {
        email: 'b@example.org',
        attempts: 3,
        state: 'failed',
        error: expect.stringContaining('550 Mailbox unavailable'),
      },
      {
        email: 'd@example.org',
        attempts: 3,
        state: 'failed',
        error: expect.stringContaining('550 Mailbox unavailable'),
      },
    ]);
  });

  it('sends nothing to an address unsubscribed while the newsletter goes out', async () => {
    const rows = await addSubscribers(
      Array.from({ length: 6 }, (_, i) => ({ email: `s${i}@example.org`, status: 'confirmed' as const })),
    );
    // Slow enough that the last address is unsubscribed long before its turn.
    const res = await send({ ...draft, perSecond: 2 });
    const { id } = res.json<{ id: string }>();
    // The last in the order the sender takes them.
    const [lastTaken] = await t.db
      .select({ id: newsletterDeliveries.subscriberId })
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.newsletterId, id))
      .orderBy(desc(newsletterDeliveries.nextAt), desc(newsletterDeliveries.subscriberId))
      .limit(1);
    const last = rows.find((row) => row.id === lastTaken!.id)!;
    await t.db
      .update(emailSubscribers)
      .set({ status: 'unsubscribed', isActive: 'false' })
      .where(eq(emailSubscribers.id, last.id));
    const done = await untilDone(id);
    expect(done).toMatchObject({ recipients: 6, sent: 5, skipped: 1 });
    expect(smtp.received.map(to)).not.toContain(last.email);
    const [skipped] = await t.db
      .select()
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.subscriberId, last.id));
    expect(skipped).toMatchObject({ state: 'skipped' });
  });
});

describe('who may, and what is refused', () => {
  const routes = [
    { method: 'GET', url: '/api/newsletters' },
    { method: 'GET', url: '/api/newsletters/x' },
    { method: 'POST', url: '/api/newsletters/preview', payload: draft },
    { method: 'POST', url: '/api/newsletters/test', payload: { ...draft, to: 'a@example.org' } },
    { method: 'POST', url: '/api/newsletters', payload: draft },
  ] as const;

  it.each(routes)('$method $url: 401 without a session, 403 for a presenter', async (route) => {
    expect((await t.app.inject({ ...route })).statusCode).toBe(401);
    expect((await t.app.inject({ ...route, headers: presenter })).statusCode).toBe(403);
  });

  it.each([
    [{ ...draft, subject: '' }, 'Subject is required'],
    [{ ...draft, subject: 'Two\nlines' }, 'Subject must not contain line breaks'],
    [{ ...draft, subject: 'x'.repeat(201) }, 'Subject must be at most 200'],
    [{ ...draft, body: '   ' }, 'Text is required'],
    [{ ...draft, body: 'nul \u0000' }, 'Text contains characters'],
    [{ ...draft, body: 'x'.repeat(20_001) }, 'Text must be at most'],
    [{ ...draft, imageUrl: 'javascript:alert(1)' }, 'Picture must be an uploaded file'],
    [{ ...draft, imageUrl: 'http://tracker.example/p.gif' }, 'Picture must be an uploaded file'],
    [{ ...draft, imageUrl: '/uploads/../secret' }, 'Picture must be an uploaded file'],
    [{ ...draft, perSecond: 0 }, 'Pace must be at least'],
    [{ ...draft, perSecond: 1000 }, 'Pace must be at most'],
    [{ ...draft, perSecond: '1' }, 'Pace must be a number'],
    [{ body: 'text' }, 'Subject is required'],
  ])('refuses %j with a 400', async (payload, message) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('refuses a test to something that is not an address', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletters/test',
      headers: staff,
      payload: { ...draft, to: 'not an address' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('valid email address');
  });

  it('answers 404 for a newsletter that does not exist', async () => {
    const res = await t.app.inject({
      url: '/api/newsletters/00000000-0000-0000-0000-000000000000',
      headers: staff,
    });
    expect(res.statusCode).toBe(404);
  });

  it.each(['%00', 'a%00b', '%20', 'x.y', '%C3%A9'])(
    'answers 400, not a database error, for an id the station never hands out: %s',
    async (id) => {
      const res = await t.app.inject({ url: `/api/newsletters/${id}`, headers: staff });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/id/);
    },
  );
});

describe('without SMTP_URL', () => {
  it('previews, but says sending needs SMTP_URL and refuses to send or test with a 409', async () => {
    const bare = await createTestApp();
    try {
      const headers = (await addStaff(bare.db, 'newsdesk', 'admin')).headers;
      await bare.db.insert(emailSubscribers).values({ email: 'ruth@example.org' });
      const list = (await bare.app.inject({ url: '/api/newsletters', headers })).json<NewsletterList>();
      expect(list).toEqual({ canSend: false, newsletters: [] });
      const preview = await bare.app.inject({
        method: 'POST',
        url: '/api/newsletters/preview',
        headers,
        payload: draft,
      });
      expect(preview.statusCode).toBe(200);
      for (const [url, payload] of [
        ['/api/newsletters', draft],
        ['/api/newsletters/test', { ...draft, to: 'a@example.org' }],
      ] as const) {
        const res = await bare.app.inject({ method: 'POST', url, headers, payload });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(NEWSLETTER_NEEDS_SMTP);
      }
      expect(await bare.db.select().from(newsletters)).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});
