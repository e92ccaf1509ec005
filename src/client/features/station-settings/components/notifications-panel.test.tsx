import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENTS, type NotificationSettings } from '../../../../common/notifications';
import { fakeStaffApi } from '../../../test/fake-staff-api';
import { renderWithProviders } from '../../../test/render-admin';
import { NotificationsPanel } from './notifications-panel';

afterEach(() => vi.unstubAllGlobals());

/** Puts text in a field as a paste: the form is large, and typing it key by key is slow. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

const PATH = '/api/admin/notifications';
const all = [...NOTIFICATION_EVENTS];

const saved = (): NotificationSettings => ({
  email: { enabled: false, events: all, last: null, recipients: ['pastor@church.org'], available: true },
  webhook: {
    enabled: true,
    events: all,
    url: 'https://hooks.example.org/radio',
    secretSet: true,
    last: { at: '2026-11-25T10:00:00.000Z', ok: false, message: 'The webhook answered 500' },
  },
  discord: { enabled: false, events: all, last: null, webhookUrlSet: false },
  telegram: { enabled: false, events: all, last: null, chatId: '', botTokenSet: false },
  mastodon: {
    enabled: false,
    events: all,
    last: null,
    instanceUrl: '',
    accessTokenSet: false,
    visibility: 'unlisted',
  },
});

describe('Station tab: notifications', () => {
  it('shows each target, its last result and that a secret is saved without showing it', async () => {
    fakeStaffApi({ [`GET ${PATH}`]: { status: 200, body: saved() } });
    renderWithProviders(<NotificationsPanel />);
    const webhook = await screen.findByRole('group', { name: 'Webhook' });
    expect(within(webhook).getByLabelText('Send to Webhook')).toBeChecked();
    expect(within(webhook).getByLabelText('Webhook address')).toHaveValue('https://hooks.example.org/radio');
    const secret = within(webhook).getByLabelText('Shared secret (signs each request)');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', 'Saved (leave blank to keep it)');
    expect(within(webhook).getByRole('status', { name: 'Webhook result' })).toHaveTextContent(
      'Last: The webhook answered 500',
    );
    expect(screen.getByRole('status', { name: 'Discord result' })).toHaveTextContent('Nothing sent yet.');
    expect(screen.getByLabelText('Send to (e-mail addresses, separated by commas)')).toHaveValue(
      'pastor@church.org',
    );
  });

  it('saves targets, events and new secrets; a secret left blank is sent blank, so the station keeps it', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: saved() },
      [`PUT ${PATH}`]: () => ({
        status: 200,
        body: {
          ...saved(),
          telegram: { ...saved().telegram, enabled: true, botTokenSet: true, chatId: '-100' },
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NotificationsPanel />);
    const telegram = await screen.findByRole('group', { name: 'Telegram' });
    await user.click(within(telegram).getByLabelText('Send to Telegram'));
    await fill(user, within(telegram).getByLabelText('Bot token (from BotFather)'), '123456:ABC-def');
    await fill(user, within(telegram).getByLabelText('Chat id (a number, or @channel)'), '-100');
    await user.click(within(telegram).getByLabelText('Telegram: Dead air (silence on air)'));
    const email = screen.getByLabelText('Send to (e-mail addresses, separated by commas)');
    await fill(user, email, 'pastor@church.org, tech@church.org');
    await user.click(screen.getByRole('button', { name: 'Save Notifications' }));
    expect(await screen.findByText('Notifications saved')).toBeInTheDocument();
    const body = api.calls('PUT', PATH)[0]!.body as Record<string, Record<string, unknown>>;
    expect(body.telegram).toEqual({
      enabled: true,
      events: all.filter((event) => event !== 'dead_air'),
      botToken: '123456:ABC-def',
      chatId: '-100',
    });
    expect(body.webhook).toMatchObject({ enabled: true, url: 'https://hooks.example.org/radio', secret: '' });
    expect(body.email!.recipients).toEqual(['pastor@church.org', 'tech@church.org']);
    // The token field is blank again, now saying one is saved.
    expect(within(telegram).getByLabelText('Bot token (from BotFather)')).toHaveValue('');
    expect(within(telegram).getByLabelText('Bot token (from BotFather)')).toHaveAttribute(
      'placeholder',
      'Saved (leave blank to keep it)',
    );
  });

  it('refuses a bad address before sending, and shows the station’s refusal', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: saved() },
      [`PUT ${PATH}`]: {
        status: 400,
        body: { message: 'Discord needs a webhook address before it can be switched on' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NotificationsPanel />);
    const webhook = await screen.findByRole('group', { name: 'Webhook' });
    await fill(user, within(webhook).getByLabelText('Webhook address'), 'ftp://hooks.example.org');
    await user.click(screen.getByRole('button', { name: 'Save Notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The webhook address must start with https://',
    );
    expect(api.calls('PUT', PATH)).toEqual([]);

    await fill(user, within(webhook).getByLabelText('Webhook address'), 'https://hooks.example.org/x');
    await user.click(screen.getByLabelText('Send to Discord'));
    await user.click(screen.getByRole('button', { name: 'Save Notifications' }));
    expect(
      await screen.findByText('Discord needs a webhook address before it can be switched on', {
        selector: 'p',
      }),
    ).toBeInTheDocument();
    expect(api.calls('PUT', PATH)).toHaveLength(1);
  });

  it('sends a test to one target and shows its result', async () => {
    const api = fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: saved() },
      [`POST ${PATH}/test/webhook`]: {
        status: 200,
        body: { at: '2026-11-25T11:00:00.000Z', ok: true, message: 'Delivered' },
      },
      [`POST ${PATH}/test/discord`]: {
        status: 400,
        body: { message: 'Nothing sent: Discord needs a webhook address' },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NotificationsPanel />);
    await user.click(await screen.findByRole('button', { name: 'Send test to Webhook' }));
    expect(await screen.findByText('Test: Delivered')).toBeInTheDocument();
    expect(api.calls('POST', `${PATH}/test/webhook`)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Send test to Discord' }));
    expect(await screen.findByRole('status', { name: 'Discord result' })).toHaveTextContent(
      'Nothing sent: Discord needs a webhook address',
    );
  });

  it('says when e-mail cannot be used', async () => {
    fakeStaffApi({
      [`GET ${PATH}`]: { status: 200, body: { ...saved(), email: { ...saved().email, available: false } } },
    });
    renderWithProviders(<NotificationsPanel />);
    expect(
      await screen.findByText(/E-mail needs the station’s mail server \(SMTP_URL\)/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Send e-mail')).toBeDisabled();
    expect(screen.getByLabelText('Send to Webhook')).toBeEnabled();
  });
});
