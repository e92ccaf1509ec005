import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENTS, type NotificationSettingsInput } from '../../../common/notifications.js';
import { createTestApp } from '../../test/helpers.js';
import { startHttpReceiver, type ReceivedRequest } from '../../test/http-receiver.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';
import { openNotifications, type Notifications } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
let api: Awaited<ReturnType<typeof startHttpReceiver>>;
let notifications: Notifications;

const SECRET = 'shared-secret';
const RETRY_MS = [150, 300];

beforeAll(async () => {
  hook = await startHttpReceiver();
  api = await startHttpReceiver();
  t = await createTestApp({ STATION_NAME: 'Grace FM', STATION_TIMEZONE: 'Africa/Nairobi' });
  await saveAllowPrivateNetworkSource(t.db, true);
}, 30_000);
afterAll(async () => {
  await t.close();
  await hook.close();
  await api.close();
});

const ok = (_request: ReceivedRequest, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};
// Each test has its own queue, so no retry of one reaches the receivers of the next.
beforeEach(() => {
  hook.control.answer = ok;
  api.control.answer = ok;
  notifications = openNotifications(t.app, {
    timings: { retryDelaysMs: RETRY_MS, timeoutMs: 400 },
    telegramApiUrl: `${api.url}/telegram`,
  });
});
afterEach(async () => {
  await notifications.close();
  await notifications.save(settings());
});

const off = { enabled: false, events: [...NOTIFICATION_EVENTS] };
const settings = (change: Partial<NotificationSettingsInput> = {}): NotificationSettingsInput => ({
  email: { ...off, recipients: [] },
  webhook: { ...off, url: `${hook.url}/hook`, secret: SECRET },
  discord: { ...off, webhookUrl: `${api.url}/discord/api/webhooks/1/abc` },
  telegram: { ...off, botToken: '123:tok', chatId: '-100' },
  mastodon: { ...off, instanceUrl: `${api.url}/mastodon`, accessToken: 'm-token', visibility: 'unlisted' },
  ...change,
});

const lastOf = async (target: 'webhook' | 'discord' | 'telegram' | 'mastodon') =>
  (await notifications.settings())[target].last;

describe('notify()', () => {
  it('returns at once and never throws while the receiver hangs; the delivery times out in the background', async () => {
    await notifications.save(
      settings({ webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET } }),
    );
    hook.control.answer = () => {
      // Never answers.
    };
    const arrived = hook.next();
    const started = performance.now();
    notifications.notify({ type: 'dead_air', source: 'The church encoder', seconds: 12 });
    expect(performance.now() - started).toBeLessThan(20);
    const request = await arrived;
    expect(JSON.parse(request.body)).toMatchObject({
      event: 'dead_air',
      details: { source: 'The church encoder', seconds: 12 },
    });
    await vi.waitFor(async () => {
      expect((await lastOf('webhook'))?.message).toMatch(
        /^The webhook did not answer within 0.4 s \(trying again in 1 s\)$/,
      );
    });
  });

  it('stops a delivery under way when the station stops, rather than wait for its timeout', async () => {
    const slow = openNotifications(t.app, { timings: { timeoutMs: 60_000 } });
    await slow.save(
      settings({ webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET } }),
    );
    hook.control.answer = () => {
      // Never answers.
    };
    const arrived = hook.next();
    slow.notify({ type: 'live_on_air', programme: 'Evening Prayer' });
    await arrived;
    const started = performance.now();
    await slow.close();
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await slow.settings()).webhook.last?.message).toBe(
      'The station stopped before the webhook answered',
    );
  });

  it('retries with growing waits: the receiver fails twice, then takes it', async () => {
    await notifications.save(
      settings({ webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET } }),
    );
    const arrivals: number[] = [];
    hook.control.answer = (_request, response) => {
      arrivals.push(Date.now());
      if (arrivals.length <= 2) response.writeHead(503).end();
      else response.writeHead(204).end();
    };
    const before = hook.received.length;
    notifications.notify({
      type: 'source_failed',
      source: 'Sunday service',
      reason: 'the encoder stopped sending',
    });
    await vi.waitFor(async () => expect((await lastOf('webhook'))?.message).toBe('Delivered'), {
      timeout: 5000,
    });
    const attempts = hook.received.slice(before);
    expect(attempts).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(RETRY_MS[0]! - 5);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(RETRY_MS[1]! - 5);
    // One delivery: the same body, id and signature on every attempt.
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-station-delivery'])).size).toBe(1);
    expect(attempts[0]!.headers['x-station-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(attempts[0]!.body).digest('hex')}`,
    );
  });

  it('gives up after the last retry and says what went wrong', async () => {
    await notifications.save(
      settings({ webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET } }),
    );
    hook.control.answer = (_request, response) => {
      response.writeHead(500).end();
    };
    const before = hook.received.length;
    notifications.notify({ type: 'live_off_air', programme: 'Evening Prayer' });
    await vi.waitFor(
      async () => expect((await lastOf('webhook'))?.message).toBe('The webhook answered 500'),
      {
        timeout: 5000,
      },
    );
    expect(hook.received.length - before).toBe(RETRY_MS.length + 1);
  });

  it('sends each target only the events it chose, and only when it is on', async () => {
    await notifications.save(
      settings({
        webhook: {
          ...off,
          enabled: true,
          events: ['recording_published'],
          url: `${hook.url}/hook`,
          secret: SECRET,
        },
        discord: { ...off, enabled: false, webhookUrl: `${api.url}/discord/api/webhooks/1/abc` },
      }),
    );
    const hookBefore = hook.received.length;
    const apiBefore = api.received.length;
    notifications.notify({ type: 'dead_air', source: 'Studio', seconds: 10 });
    const arrived = hook.next();
    notifications.notify({
      type: 'recording_published',
      title: 'Sunday Service',
      link: 'https://radio.example/s/1',
    });
    const request = await arrived;
    expect(JSON.parse(request.body).event).toBe('recording_published');
    expect(hook.received.length - hookBefore).toBe(1);
    expect(api.received.length).toBe(apiBefore);
  });

  it('keeps one failing target from touching another: Discord is told while the webhook fails', async () => {
    await notifications.save(
      settings({
        webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET },
        discord: { ...off, enabled: true, webhookUrl: `${api.url}/discord/api/webhooks/1/abc` },
      }),
    );
    hook.control.answer = (_request, response) => {
      response.destroy();
    };
    const discord = api.next();
    notifications.notify({
      type: 'presenter_missing',
      programme: 'Morning Devotion',
      presenter: 'Pastor Ruth',
      scheduledStart: new Date('2026-12-06T04:00:00Z'),
    });
    const request = await discord;
    expect(request.url).toBe('/discord/api/webhooks/1/abc');
    const body = JSON.parse(request.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    // 04:00 UTC is 07:00 in Nairobi.
    expect(body.content).toContain(
      'Pastor Ruth was due on air for "Morning Devotion" at 07:00 on Sunday 6 December (Africa/Nairobi) but is not connected.',
    );
    expect(body.content).toContain('Grace FM, ');
    await vi.waitFor(async () => expect((await lastOf('discord'))?.message).toBe('Delivered'));
    await vi.waitFor(async () =>
      expect((await lastOf('webhook'))?.message).toMatch(/^The webhook could not be reached \(trying again/),
    );
  });
});

describe('each target’s API', () => {
  it('Telegram: sendMessage with the bot token and chat id, and its reason when it refuses', async () => {
    await notifications.save(settings());
    const arrived = api.next();
    expect(await notifications.sendTest('telegram')).toMatchObject({ ok: true, message: 'Delivered' });
    const request = await arrived;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/telegram/bot123:tok/sendMessage');
    expect(JSON.parse(request.body)).toMatchObject({
      chat_id: '-100',
      text: expect.stringContaining('Grace FM'),
    });
    api.control.answer = (_request, response) => {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"ok":false,"error_code":401,"description":"Unauthorized"}');
    };
    expect(await notifications.sendTest('telegram')).toMatchObject({
      ok: false,
      message: 'The Telegram API answered 401: Unauthorized',
    });
  });

  it('Mastodon: a status with the chosen visibility, the access token, and one key per delivery', async () => {
    await notifications.save(
      settings({
        mastodon: {
          ...off,
          enabled: true,
          instanceUrl: `${api.url}/mastodon/`,
          accessToken: 'm-token',
          visibility: 'private',
        },
      }),
    );
    const arrived = api.next();
    notifications.notify({ type: 'live_on_air', programme: 'Sunday Service', presenter: 'Pastor Ruth' });
    const request = await arrived;
    expect(request.url).toBe('/mastodon/api/v1/statuses');
    expect(request.headers.authorization).toBe('Bearer m-token');
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(request.body);
    expect(body.visibility).toBe('private');
    expect(body.status).toContain('The live programme "Sunday Service" with Pastor Ruth is now on air.');
    expect(body.status.length).toBeLessThanOrEqual(500);
  });

  it('Discord: its webhook answering 404 is said plainly', async () => {
    await notifications.save(settings());
    api.control.answer = (_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Unknown Webhook"}');
    };
    expect(await notifications.sendTest('discord')).toMatchObject({
      ok: false,
      message: 'The Discord webhook answered 404: Unknown Webhook',
    });
  });
});

describe('the queue’s bound', () => {
  it('drops the oldest waiting delivery with a log line when full', async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(t.app.log, 'warn').mockImplementation(((message: string) => {
      warnings.push(message);
    }) as never);
    const small = openNotifications(t.app, { timings: { retryDelaysMs: [], timeoutMs: 2000, maxQueued: 5 } });
    try {
      await small.save(
        settings({ webhook: { ...off, enabled: true, url: `${hook.url}/hook`, secret: SECRET } }),
      );
      const held: ServerResponse[] = [];
      hook.control.answer = (_request, response) => {
        held.push(response);
      };
      for (let n = 0; n < 8; n++) small.notify({ type: 'dead_air', source: `Source ${n}`, seconds: n });
      await vi.waitFor(() =>
        expect(warnings.filter((w) => w.startsWith('Notification queue full'))).toHaveLength(3),
      );
      expect(warnings[0]).toContain('dropped the oldest delivery, dead_air to Webhook');
      // Four are under way at once; the others wait their turn.
      await vi.waitFor(() => expect(held).toHaveLength(4));
      for (const response of held.splice(0)) response.writeHead(204).end();
      await vi.waitFor(() => expect(held).toHaveLength(1));
      held[0]!.writeHead(204).end();
      await small.close();
      // The first four went out at once; of those waiting, the three oldest made way for newer ones.
      const sources = hook.received.slice(-5).map((r) => JSON.parse(r.body).details.source as string);
      expect(sources.sort()).toEqual(['Source 0', 'Source 1', 'Source 2', 'Source 3', 'Source 7']);
    } finally {
      await small.close();
      warn.mockRestore();
    }
  });
});
