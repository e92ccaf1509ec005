import { z } from 'zod';
import {
  MASTODON_VISIBILITIES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TARGET_LABELS,
  NOTIFICATION_TARGETS,
  type DeliveryResult,
  type NotificationEventType,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationTarget,
} from '../../../common/notifications.js';
import type { StoredTargetRow } from './repository.js';

/** Each target's settings as stored, secrets included (never sent to the client). */
export interface TargetSettings {
  email: { recipients: string[] };
  webhook: { url: string; secret: string };
  discord: { webhookUrl: string };
  telegram: { botToken: string; chatId: string };
  mastodon: { instanceUrl: string; accessToken: string; visibility: (typeof MASTODON_VISIBILITIES)[number] };
}

export interface Target<K extends NotificationTarget> {
  enabled: boolean;
  events: NotificationEventType[];
  settings: TargetSettings[K];
  last: DeliveryResult | null;
}
export type Targets = { [K in NotificationTarget]: Target<K> };

const text = z.string().catch('');
const storedSettings = {
  email: z.object({ recipients: z.array(z.string()).catch([]) }),
  webhook: z.object({ url: text, secret: text }),
  discord: z.object({ webhookUrl: text }),
  telegram: z.object({ botToken: text, chatId: text }),
  mastodon: z.object({
    instanceUrl: text,
    accessToken: text,
    visibility: z.enum(MASTODON_VISIBILITIES).catch('unlisted'),
  }),
} satisfies { [K in NotificationTarget]: z.ZodType<TargetSettings[K]> };
const storedEvents = z.array(z.enum(NOTIFICATION_EVENTS)).catch([...NOTIFICATION_EVENTS]);

/** Every target as stored; one never saved is off, gets every event, and has nothing set. */
export function targetsFrom(rows: StoredTargetRow[]): Targets {
  const byTarget = new Map(rows.map((row) => [row.target, row]));
  const one = <K extends NotificationTarget>(target: K): Target<K> => {
    const row = byTarget.get(target);
    const settings = storedSettings[target].safeParse(row?.settings ?? {});
    return {
      enabled: row?.enabled ?? false,
      // A target saved with no events keeps that choice; one never saved gets them all.
      events: row ? storedEvents.parse(row.events) : [...NOTIFICATION_EVENTS],
      settings: (settings.success ? settings.data : storedSettings[target].parse({})) as TargetSettings[K],
      last: row?.last ?? null,
    };
  };
  return {
    email: one('email'),
    webhook: one('webhook'),
    discord: one('discord'),
    telegram: one('telegram'),
    mastodon: one('mastodon'),
  };
}

/** What the client sees: secrets only as 'set'. */
export function targetsView(targets: Targets, emailAvailable: boolean): NotificationSettings {
  const base = <K extends NotificationTarget>(target: Target<K>) => ({
    enabled: target.enabled,
    events: target.events,
    last: target.last,
  });
  return {
    email: {
      ...base(targets.email),
      recipients: targets.email.settings.recipients,
      available: emailAvailable,
    },
    webhook: {
      ...base(targets.webhook),
      url: targets.webhook.settings.url,
      secretSet: targets.webhook.settings.secret !== '',
    },
    discord: { ...base(targets.discord), webhookUrlSet: targets.discord.settings.webhookUrl !== '' },
    telegram: {
      ...base(targets.telegram),
      chatId: targets.telegram.settings.chatId,
      botTokenSet: targets.telegram.settings.botToken !== '',
    },
    mastodon: {
      ...base(targets.mastodon),
      instanceUrl: targets.mastodon.settings.instanceUrl,
      accessTokenSet: targets.mastodon.settings.accessToken !== '',
      visibility: targets.mastodon.settings.visibility,
    },
  };
}

/** Staff's input over what is stored: a blank secret keeps the stored one. */
export function mergeInput(stored: Targets, input: NotificationSettingsInput): Targets {
  const keep = (given: string | null | undefined, kept: string) => (given === null ? '' : given || kept);
  const target = <K extends NotificationTarget>(key: K, settings: TargetSettings[K]): Target<K> => ({
    enabled: input[key].enabled,
    events: NOTIFICATION_EVENTS.filter((event) => input[key].events.includes(event)),
    settings,
    last: stored[key].last,
  });
  return {
    email: target('email', { recipients: [...new Set(input.email.recipients.map((r) => r.toLowerCase()))] }),
    webhook: target('webhook', {
      url: input.webhook.url,
      secret: keep(input.webhook.secret, stored.webhook.settings.secret),
    }),
    discord: target('discord', {
      webhookUrl: keep(input.discord.webhookUrl, stored.discord.settings.webhookUrl),
    }),
    telegram: target('telegram', {
      botToken: keep(input.telegram.botToken, stored.telegram.settings.botToken),
      chatId: input.telegram.chatId,
    }),
    mastodon: target('mastodon', {
      instanceUrl: input.mastodon.instanceUrl.replace(/\/+$/, ''),
      accessToken: keep(input.mastodon.accessToken, stored.mastodon.settings.accessToken),
      visibility: input.mastodon.visibility,
    }),
  };
}

/** What a target still lacks before it can send (undefined when it has all it needs). */
export function missingFor<K extends NotificationTarget>(
  key: K,
  target: Target<K>,
  emailAvailable: boolean,
): string | undefined {
  const settings = target.settings as TargetSettings[NotificationTarget];
  switch (key) {
    case 'email': {
      if (!emailAvailable) return "E-mail needs the station's mail server (SMTP_URL) to be set up";
      const { recipients } = settings as TargetSettings['email'];
      return recipients.length === 0 ? 'E-mail needs at least one recipient' : undefined;
    }
    case 'webhook': {
      const { url, secret } = settings as TargetSettings['webhook'];
      return url && secret ? undefined : 'The webhook needs an address and a secret';
    }
    case 'discord':
      return (settings as TargetSettings['discord']).webhookUrl
        ? undefined
        : 'Discord needs a webhook address';
    case 'telegram': {
      const { botToken, chatId } = settings as TargetSettings['telegram'];
      return botToken && chatId ? undefined : 'Telegram needs a bot token and a chat id';
    }
    case 'mastodon': {
      const { instanceUrl, accessToken } = settings as TargetSettings['mastodon'];
      return instanceUrl && accessToken ? undefined : 'Mastodon needs a server address and an access token';
    }
  }
  return `${NOTIFICATION_TARGET_LABELS[key]} is not set up`;
}

export const targetRows = (targets: Targets) =>
  NOTIFICATION_TARGETS.map((target) => ({
    target,
    enabled: targets[target].enabled,
    events: targets[target].events,
    settings: targets[target].settings,
  }));
