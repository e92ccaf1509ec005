import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { NOTIFICATION_EVENTS, type NotificationSettingsInput } from '../../common/notifications.js';

const off = { enabled: false, events: [...NOTIFICATION_EVENTS] };

/**
 * Saves the Station tab's notification targets through its route (a superuser's headers): every target off
 * but those given.
 */
export async function saveNotificationTargets(
  app: FastifyInstance,
  headers: Record<string, string>,
  targets: Partial<Pick<NotificationSettingsInput, 'email' | 'webhook'>>,
) {
  const payload: NotificationSettingsInput = {
    email: { ...off, recipients: [] },
    webhook: { ...off, url: '', secret: null },
    discord: { ...off, webhookUrl: null },
    telegram: { ...off, botToken: null, chatId: '' },
    mastodon: { ...off, instanceUrl: '', accessToken: null, visibility: 'unlisted' },
    ...targets,
  };
  const saved = await app.inject({ method: 'PUT', url: '/api/admin/notifications', headers, payload });
  expect(saved.statusCode, saved.body).toBe(200);
}
