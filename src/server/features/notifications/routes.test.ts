import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENTS, type NotificationSettingsInput } from '../../../common/notifications.js';
import { createTestApp } from '../../test/helpers.js';
import { startHttpReceiver } from '../../test/http-receiver.js';
import { startSmtpServer } from '../../test/smtp-server.js';
import { addStaff } from '../../test/staff.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let superuser: Record<string, string>;
let admin: Record<string, string>;

const SECRET = 'a-shared-secret-the-church-keeps';

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startHttpReceiver();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://radio.example.org',
    STATION_NAME: 'Hope Radio',
    STATION_TIMEZONE: 'America/New_York',
  });
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  admin = (await addStaff(t.db, 'presenter', 'admin')).headers;
}, 30_000);
afterAll(async () => {
  await t.close();
  await receiver.close();
  await smtp.close();
});
beforeEach(async () => {
  // The receivers are on 127.0.0.1: only a station that allows a private network may send to them.
  await saveAllowPrivateNetworkSource(t.db, true);
  receiver.control.answer = (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
});

const URL = '/api/admin/notifications';
const get = (headers = superuser) => t.app.inject({ method: 'GET', url: URL, headers });
const put = (payload: unknown, headers = superuser) =>
  t.app.inject({ method: 'PUT', url: URL, headers, payload: payload as object });
const sendTest = (target: string, headers = superuser) =>
  t.app.inject({ method: 'POST', url: `${URL}/test/${target}`, headers });

const off = { enabled: false, events: [...NOTIFICATION_EVENTS] };
const valid = (): NotificationSettingsInput => ({
  email: { ...off, recipients: ['pastor@church.example'] },
  webhook: { ...off, enabled: true, url: `${receiver.url}/hook`, secret: SECRET },
  // null removes a stored secret: each case starts from the same settings.
  discord: { ...off, webhookUrl: null },
  telegram: { ...off, botToken: null, chatId: '' },
  mastodon: { ...off, instanceUrl: '', accessToken: null, visibility: 'unlisted' },
});

describe('the Station tab’s notification targets', () => {
  it('start off, with every event chosen, nothing set, and no last result', async () => {
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.email).toEqual({
      enabled: false,
      events: [...NOTIFICATION_EVENTS],
      recipients: [],
      available: true,
      last: null,
    });
    expect(body.webhook).toMatchObject({ enabled: false, url: '', secretSet: false, last: null });
    expect(body.discord).toMatchObject({ webhookUrlSet: false });
    expect(body.telegram).toMatchObject({ chatId: '', botTokenSet: false });
    expect(body.mastodon).toMatchObject({ instanceUrl: '', accessTokenSet: false, visibility: 'unlisted' });
  });

  it('saves what a superuser sets and never sends a secret back; a blank secret keeps the stored one', async () => {
    const input = valid();
    input.telegram = {
      enabled: false,
      events: ['dead_air'],
      botToken: '123456:ABC-def_9',
      chatId: '-100200',
    };
    input.mastodon = {
      ...off,
      instanceUrl: 'https://social.example/',
      accessToken: 'mastodon-token-xyz',
      visibility: 'private',
    };
    input.discord = { ...off, webhookUrl: 'https://discord.com/api/webhooks/1/discord-secret' };
    const saved = await put(input);
    expect(saved.statusCode, saved.body).toBe(200);
    for (const secret of [SECRET, '123456:ABC-def_9', 'mastodon-token-xyz', 'discord-secret'])
      expect(saved.body).not.toContain(secret);
    const body = (await get()).json();
    expect(body.webhook).toMatchObject({ enabled: true, url: `${receiver.url}/hook`, secretSet: true });
    expect(body.telegram).toMatchObject({ events: ['dead_air'], chatId: '-100200', botTokenSet: true });
    expect(body.mastodon).toMatchObject({
      instanceUrl: 'https://social.example',
      accessTokenSet: true,
      visibility: 'private',
    });
    expect(body.discord).toMatchObject({ webhookUrlSet: true });
    expect((await get()).body).not.toContain(SECRET);

    // Saved again with the secrets blank (as the form sends them): each stored one is kept.
    const again = await put({
      ...input,
      webhook: { ...input.webhook, secret: '' },
      telegram: { ...input.telegram, botToken: '' },
      mastodon: { ...input.mastodon, accessToken: undefined },
      discord: { ...input.discord, webhookUrl: '' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().webhook.secretSet).toBe(true);
    expect(again.json().telegram.botTokenSet).toBe(true);
    expect(again.json().mastodon.accessTokenSet).toBe(true);
    expect(again.json().discord.webhookUrlSet).toBe(true);
    const test = await sendTest('webhook');
    expect(test.json()).toMatchObject({ ok: true });
    const request = receiver.received.at(-1)!;
    expect(request.headers['x-station-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`,
    );
  });

  const refusals: [string, (input: NotificationSettingsInput) => unknown, string][] = [
    [
      'a webhook switched on with its secret removed',
      (i) => ({ ...i, webhook: { ...i.webhook, url: 'https://hooks.example/x', secret: null } }),
      'The webhook needs an address and a secret before it can be switched on',
    ],
    [
      'a webhook switched on with no address',
      (i) => ({ ...i, webhook: { ...i.webhook, url: '' } }),
      'The webhook needs an address and a secret',
    ],
    [
      'a webhook address that is not http(s)',
      (i) => ({ ...i, webhook: { ...i.webhook, url: 'ftp://hooks.example/x' } }),
      'The webhook address must start with https://',
    ],
    [
      'a webhook address with a space in its host',
      (i) => ({ ...i, webhook: { ...i.webhook, url: 'https://ho oks.example' } }),
      'The webhook address',
    ],
    [
      'e-mail switched on with no recipient',
      (i) => ({ ...i, email: { ...i.email, enabled: true, recipients: [] } }),
      'E-mail needs at least one recipient before it can be switched on',
    ],
    [
      'a recipient that is not an address',
      (i) => ({ ...i, email: { ...i.email, recipients: ['pastor at church'] } }),
      'Each recipient must be an e-mail address',
    ],
    [
      'too many recipients',
      (i) => ({
        ...i,
        email: { ...i.email, recipients: Array.from({ length: 21 }, (_, n) => `s${n}@c.org`) },
      }),
      'At most 20 e-mail recipients',
    ],
    [
      'an event the station does not have',
      (i) => ({ ...i, webhook: { ...i.webhook, events: ['dead_air', 'coffee_break'] } }),
      'Each event must be one of',
    ],
    [
      'an event twice',
      (i) => ({ ...i, webhook: { ...i.webhook, events: ['dead_air', 'dead_air'] } }),
      'Webhook: each event may be listed once',
    ],
    [
      'on or off as text',
      (i) => ({ ...i, discord: { ...i.discord, enabled: 'yes' } }),
      'Discord: on or off must be true or false',
    ],
    [
      'Discord switched on with no address',
      (i) => ({ ...i, discord: { ...i.discord, enabled: true } }),
      'Discord needs a webhook address before it can be switched on',
    ],
    [
      'a Telegram token of the wrong shape',
      (i) => ({ ...i, telegram: { ...i.telegram, botToken: '../../admin' } }),
      'The Telegram bot token looks like',
    ],
    [
      'a Telegram chat id that is not one',
      (i) => ({ ...i, telegram: { ...i.telegram, chatId: 'my group' } }),
      'The Telegram chat id must be a number or an @channel name',
    ],
    [
      'Telegram switched on with no token',
      (i) => ({ ...i, telegram: { ...i.telegram, enabled: true, chatId: '42' } }),
      'Telegram needs a bot token and a chat id',
    ],
    [
      'a Mastodon visibility it does not have',
      (i) => ({ ...i, mastodon: { ...i.mastodon, visibility: 'direct' } }),
      'Mastodon visibility must be one of public, unlisted, private',
    ],
    [
      'Mastodon switched on with no token',
      (i) => ({ ...i, mastodon: { ...i.mastodon, enabled: true, instanceUrl: 'https://social.example' } }),
      'Mastodon needs a server address and an access token',
    ],
    [
      'a secret with a line break',
      (i) => ({ ...i, webhook: { ...i.webhook, secret: 'one\ntwo' } }),
      'The webhook secret must not contain spaces or control characters',
    ],
    ['a target missing', (i) => ({ ...i, mastodon: undefined }), 'mastodon'],
    ['a field it does not know', (i) => ({ ...i, sms: {} }), 'Unrecognized key'],
  ];

  it.each(refusals)(
    'refuses %s with a clear 400 and keeps what was saved',
    async (_case, change, message) => {
      const before = (await get()).body;
      const res = await put(change(valid()));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(message);
      expect((await get()).body).toBe(before);
    },
  );

  it('answers any other body with a 4xx and a message, and stores nothing (fast-check)', async () => {
    const before = (await get()).body;
    const anyValue = fc.oneof(
      fc.constantFrom(null, true, 0, '', ' ', 'https://', 'javascript:alert(1)', '\u0000', '💒'.repeat(300)),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.webUrl(),
      fc.array(fc.constantFrom(...NOTIFICATION_EVENTS, 'x'), { maxLength: 9 }),
    );
    const target = fc.dictionary(
      fc.constantFrom(
        'enabled',
        'events',
        'url',
        'secret',
        'recipients',
        'botToken',
        'chatId',
        'visibility',
        'x',
      ),
      anyValue,
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.dictionary(fc.constantFrom('email', 'webhook', 'discord', 'telegram', 'mastodon', 'x'), target, {
            maxKeys: 6,
          }),
          anyValue,
        ),
        async (body) => {
          const res = await t.app.inject({
            method: 'PUT',
            url: URL,
            headers: { ...superuser, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expect(res.statusCode).toBeGreaterThanOrEqual(400);
          expect(res.statusCode).toBeLessThan(500);
          expect(typeof res.json().message).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
    expect((await get()).body).toBe(before);
  });

  it('lets only a superuser read, change or test them', async () => {
    const before = (await get()).body;
    const count = receiver.received.length;
    expect((await get({})).statusCode).toBe(401);
    expect((await get({ authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    expect((await get(admin)).statusCode).toBe(403);
    expect((await put(valid(), {})).statusCode).toBe(401);
    expect(
      (await put({ ...valid(), webhook: { ...valid().webhook, url: 'https://x.example' } }, admin))
        .statusCode,
    ).toBe(403);
    expect((await sendTest('webhook', {})).statusCode).toBe(401);
    expect((await sendTest('webhook', admin)).statusCode).toBe(403);
    expect((await get()).body).toBe(before);
    expect(receiver.received.length).toBe(count);
  });
});

describe('the Send test button', () => {
  it('sends a signed test to the webhook and keeps the result as its last', async () => {
    expect((await put(valid())).statusCode).toBe(200);
    const arrived = receiver.next();
    const res = await sendTest('webhook');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, message: 'Delivered' });
    const request = await arrived;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hook');
    expect(request.headers['content-type']).toContain('application/json');
    // Verified as docs/notifications.md tells a receiver to: HMAC-SHA256 of the raw body, compared in constant time.
    const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`);
    const given = Buffer.from(String(request.headers['x-station-signature']));
    expect(given.length === expected.length && timingSafeEqual(given, expected)).toBe(true);
    const timestamp = Number(request.headers['x-station-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(30);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      event: 'test',
      station: { name: 'Hope Radio', timeZone: 'America/New_York' },
      subject: 'Hope Radio: test notification',
    });
    expect(body.text).toContain('This is a test from Hope Radio');
    expect(body.text).toMatch(/\d\d:\d\d on \w+day \d+ \w+ \(America\/New_York\)/);
    expect(new Date(body.at).getTime() / 1000).toBeCloseTo(timestamp, -1);
    expect(request.headers['x-station-delivery']).toBe(body.delivery);
    expect((await get()).json().webhook.last).toMatchObject({ ok: true, message: 'Delivered' });
  });

  it('says in plain words what the webhook answered when it fails', async () => {
    receiver.control.answer = (_request, response) => {
      response.writeHead(500).end('boom');
    };
    const res = await sendTest('webhook');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, message: 'The webhook answered 500' });
    expect((await get()).json().webhook.last).toMatchObject({
      ok: false,
      message: 'The webhook answered 500',
    });
  });

  it('sends nothing to a private address unless the Station tab allows a private network', async () => {
    expect((await put(valid())).statusCode).toBe(200);
    await saveAllowPrivateNetworkSource(t.db, false);
    const count = receiver.received.length;
    const res = await sendTest('webhook');
    expect(res.statusCode).toBe(200);
    expect(res.json().ok).toBe(false);
    expect(res.json().message).toContain("The station may not send to the webhook's address");
    expect(receiver.received.length).toBe(count);
  });

  it('sends nothing to the station itself, even with a private network allowed', async () => {
    const input = valid();
    input.webhook.url = 'https://radio.example.org/api/admin/notifications';
    expect((await put(input)).statusCode).toBe(200);
    const res = await sendTest('webhook');
    expect(res.json()).toMatchObject({ ok: false });
    expect(res.json().message).toContain('the station itself');
  });

  it('e-mails the chosen staff through the station’s SMTP server', async () => {
    const input = valid();
    input.email = {
      ...input.email,
      enabled: true,
      recipients: ['Pastor@Church.example', 'tech@church.example'],
    };
    expect((await put(input)).json().email.recipients).toEqual([
      'pastor@church.example',
      'tech@church.example',
    ]);
    const res = await sendTest('email');
    expect(res.json(), res.body).toMatchObject({ ok: true, message: 'Delivered' });
    const mail = smtp.received.at(-1)!;
    expect(mail.envelopeTo).toEqual(['pastor@church.example', 'tech@church.example']);
    expect(mail.headers.get('subject')).toBe('Hope Radio: test notification');
    expect(mail.parts['text/plain']).toContain(
      'This is a test from Hope Radio. Notifications for E-mail arrive here.',
    );
  });

  it('says so when the mail server refuses', async () => {
    smtp.control.refuse = true;
    try {
      const res = await sendTest('email');
      expect(res.json()).toMatchObject({ ok: false, message: 'The mail server refused the e-mail (550)' });
    } finally {
      smtp.control.refuse = false;
    }
  });

  it('refuses a target that is not set up, or not a target, with a clear 400', async () => {
    const discord = await sendTest('discord');
    expect(discord.statusCode).toBe(400);
    expect(discord.json().message).toBe('Nothing sent: Discord needs a webhook address');
    const unknown = await sendTest('pager');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain(
      'The target must be one of email, webhook, discord, telegram, mastodon',
    );
  });
});

describe('app.notify', () => {
  it('reaches the webhook and the chosen staff’s e-mail of a switched-on target', async () => {
    const input = valid();
    input.email = { ...input.email, enabled: true, events: ['dead_air'] };
    expect((await put(input)).statusCode).toBe(200);
    const mails = smtp.received.length;
    const arrived = receiver.next();
    t.app.notify({ type: 'dead_air', source: 'The church encoder', seconds: 12 });
    const request = await arrived;
    expect(JSON.parse(request.body)).toMatchObject({ event: 'dead_air', details: { seconds: 12 } });
    await vi.waitFor(() => expect(smtp.received.length).toBe(mails + 1), { timeout: 10_000 });
    expect(smtp.received.at(-1)!.headers.get('subject')).toBe('Hope Radio: dead air');
    expect(smtp.received.at(-1)!.parts['text/plain']).toContain(
      'The church encoder has been silent for 12 seconds.',
    );
  });
});

describe('without SMTP_URL', () => {
  it('shows e-mail as unavailable and will not switch it on', async () => {
    const u = await createTestApp();
    try {
      const headers = (await addStaff(u.db, 'manager', 'superuser')).headers;
      const view = await u.app.inject({ method: 'GET', url: URL, headers });
      expect(view.json().email.available).toBe(false);
      const input = valid();
      input.webhook.enabled = false;
      input.email.enabled = true;
      const res = await u.app.inject({ method: 'PUT', url: URL, headers, payload: input });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        "E-mail needs the station's mail server (SMTP_URL) to be set up before it can be switched on",
      );
    } finally {
      await u.close();
    }
  });
});
