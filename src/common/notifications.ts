import { z } from 'zod';

/** What the station tells staff about (issue 23, 'Staff told'), in the order the Station tab lists them. */
export const NOTIFICATION_EVENTS = [
  'live_on_air',
  'live_off_air',
  'dead_air',
  'dead_air_ended',
  'presenter_missing',
  'source_failed',
  'recording_published',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENTS)[number];

/** How the Station tab names each event beside its checkbox. */
export const NOTIFICATION_EVENT_LABELS: Record<NotificationEventType, string> = {
  live_on_air: 'A live programme goes on air',
  live_off_air: 'A live programme goes off air',
  dead_air: 'Dead air (silence on air)',
  dead_air_ended: 'Sound is back after dead air',
  presenter_missing: 'A presenter is not connected at their start',
  source_failed: 'A source fails',
  recording_published: 'A recording is published',
};

/**
 * One thing that happened at the station, as the engine and the features tell it to `app.notify`. Times are
 * instants; the texts give them in the station's time zone.
 */
export type StationEvent =
  | { type: 'live_on_air'; programme: string; presenter?: string }
  | { type: 'live_off_air'; programme: string; presenter?: string }
  | { type: 'dead_air'; source: string; seconds: number }
  | { type: 'dead_air_ended'; source: string; seconds?: number }
  | { type: 'presenter_missing'; programme: string; presenter: string; scheduledStart: Date }
  | { type: 'source_failed'; source: string; reason: string }
  | { type: 'recording_published'; title: string; link: string };

/** Where notifications go, in the order the Station tab shows them. */
export const NOTIFICATION_TARGETS = ['email', 'webhook', 'discord', 'telegram', 'mastodon'] as const;
export type NotificationTarget = (typeof NOTIFICATION_TARGETS)[number];

export const NOTIFICATION_TARGET_LABELS: Record<NotificationTarget, string> = {
  email: 'E-mail',
  webhook: 'Webhook',
  discord: 'Discord',
  telegram: 'Telegram',
  mastodon: 'Mastodon',
};

export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type MastodonVisibility = (typeof MASTODON_VISIBILITIES)[number];
export const MAX_EMAIL_RECIPIENTS = 20;
const MAX_URL_LENGTH = 2000;
const MAX_SECRET_LENGTH = 500;

export const notificationTargetSchema = z.enum(NOTIFICATION_TARGETS, {
  error: `The target must be one of ${NOTIFICATION_TARGETS.join(', ')}`,
});
export const notificationTargetParamsSchema = z.object({ target: notificationTargetSchema });

const eventsSchema = (label: string) =>
  z
    .array(
      z.enum(NOTIFICATION_EVENTS, { error: `Each event must be one of ${NOTIFICATION_EVENTS.join(', ')}` }),
      {
        error: `${label}: events must be a list`,
      },
    )
    .max(NOTIFICATION_EVENTS.length, `${label}: each event may be listed once`)
    .refine((list) => new Set(list).size === list.length, `${label}: each event may be listed once`);

const webAddress = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(MAX_URL_LENGTH, `${label} is too long`)
    .refine(
      (value) => value === '' || /^https?:\/\/[^\s/?#]+/i.test(value),
      `${label} must start with https://`,
    )
    .refine((value) => value === '' || URL.canParse(value), `${label} is not a valid address`);

/** A secret as the client sends it: blank (or absent) keeps the stored one, null removes it. */
const secretInput = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(MAX_SECRET_LENGTH, `${label} is too long`)
    .refine((value) => !/[\p{Cc}\s]/u.test(value), `${label} must not contain spaces or control characters`)
    .nullable()
    .optional();

const base = (label: string) => ({
  enabled: z.boolean({ error: `${label}: on or off must be true or false` }),
  events: eventsSchema(label),
});

/**
 * The Station tab's notification targets as staff save them (PUT /api/admin/notifications). Secrets left blank
 * keep the stored ones; they are never sent back.
 */
export const notificationSettingsInputSchema = z
  .object({
    email: z
      .object({
        ...base('E-mail'),
        recipients: z
          .array(z.email({ error: 'Each recipient must be an e-mail address' }).max(254), {
            error: 'E-mail recipients must be a list',
          })
          .max(MAX_EMAIL_RECIPIENTS, `At most ${MAX_EMAIL_RECIPIENTS} e-mail recipients`),
      })
      .strict(),
    webhook: z
      .object({
        ...base('Webhook'),
        url: webAddress('The webhook address'),
        secret: secretInput('The webhook secret'),
      })
      .strict(),
    discord: z
      .object({
        ...base('Discord'),
        webhookUrl: webAddress('The Discord webhook address').nullable().optional(),
      })
      .strict(),
    telegram: z
      .object({
        ...base('Telegram'),
        botToken: secretInput('The Telegram bot token').refine(
          (value) => !value || /^\d+:[\w-]+$/.test(value),
          'The Telegram bot token looks like 123456789:AAE… (as BotFather gives it)',
        ),
        chatId: z
          .string({ error: 'The Telegram chat id must be text' })
          .trim()
          .max(100, 'The Telegram chat id is too long')
          .regex(/^(-?\d+|@\w+)?$/, 'The Telegram chat id must be a number or an @channel name'),
      })
      .strict(),
    mastodon: z
      .object({
        ...base('Mastodon'),
        instanceUrl: webAddress('The Mastodon server address'),
        accessToken: secretInput('The Mastodon access token'),
        visibility: z.enum(MASTODON_VISIBILITIES, {
          error: `Mastodon visibility must be one of ${MASTODON_VISIBILITIES.join(', ')}`,
        }),
      })
      .strict(),
  })
  .strict();
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInputSchema>;

/** The outcome of one delivery (or test) to a target. */
export const deliveryResultSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  /** 'Delivered', or what went wrong in plain words ('The webhook answered 500'). */
  message: z.string(),
});
export type DeliveryResult = z.infer<typeof deliveryResultSchema>;

const viewBase = {
  enabled: z.boolean(),
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
  last: deliveryResultSchema.nullable(),
};

/** What GET /api/admin/notifications answers: each target's settings (secrets only as 'set') and last result. */
export const notificationSettingsSchema = z.object({
  email: z.object({
    ...viewBase,
    recipients: z.array(z.string()),
    /** False when the station has no SMTP set-up (SMTP_URL): e-mail cannot be switched on. */
    available: z.boolean(),
  }),
  webhook: z.object({ ...viewBase, url: z.string(), secretSet: z.boolean() }),
  discord: z.object({ ...viewBase, webhookUrlSet: z.boolean() }),
  telegram: z.object({ ...viewBase, chatId: z.string(), botTokenSet: z.boolean() }),
  mastodon: z.object({
    ...viewBase,
    instanceUrl: z.string(),
    accessTokenSet: z.boolean(),
    visibility: z.enum(MASTODON_VISIBILITIES),
  }),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
