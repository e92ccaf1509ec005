import { createHmac } from 'node:crypto';
import type { NotificationTarget } from '../../../common/notifications.js';
import type { StationInfo } from '../../../common/station.js';
import { RefusedSourceAddress } from '../radio/service.js';
import type { AnyEvent, NotificationMessage } from './messages.js';
import type { TargetSettings } from './targets.js';

/** A failed delivery, in the plain words staff see as the target's last result. */
export class DeliveryError extends Error {}

/** `fetch` as the station allows it for addresses staff typed (radio's stationCheckedFetch). */
export type CheckedFetch = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
) => Promise<Response>;

/** The station's SMTP mailer, as far as notifications use it (subscribers' mailer.ts). */
export interface StaffMailer {
  sendToStaff(email: { to: string[]; subject: string; text: string }): Promise<void>;
}

export interface DeliveryContext {
  fetch: CheckedFetch;
  mailer: StaffMailer | undefined;
  station: StationInfo;
  /** Telegram's Bot API; another address only in tests. */
  telegramApiUrl: string;
  timeoutMs: number;
  /** Aborted when the station stops. */
  stopping?: AbortSignal;
}

/** One delivery of one event: the same id on every attempt, so a receiver can tell a retry from a new event. */
export interface Delivery {
  id: string;
  event: AnyEvent;
  message: NotificationMessage;
}

const DISCORD_LIMIT = 2000;
const MASTODON_LIMIT = 500;
const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** The webhook's signature header value: `sha256=` and the hex HMAC-SHA256 of the raw body with the secret. */
export const webhookSignature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A short reason an API gave in its JSON answer ('description', 'error' or 'message'), if any. */
function reasonIn(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const reason = parsed.description ?? parsed.error ?? parsed.message;
    return typeof reason === 'string' && reason.trim() ? cut(reason.trim(), 200) : undefined;
  } catch {
    return undefined;
  }
}

/** One POST of JSON; throws DeliveryError saying what went wrong, naming the target as staff know it. */
async function postJson(
  context: DeliveryContext,
  what: string,
  url: string,
  body: string,
  headers: Record<string, string> = {},
  withReason = false,
): Promise<void> {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = context.stopping ? AbortSignal.any([timeout, context.stopping]) : timeout;
  const seconds = Math.round(context.timeoutMs / 100) / 10;
  let response: Response;
  try {
    response = await context.fetch(url, {
      method: 'POST',
      body,
      signal,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': `${context.station.name.replace(/[^\x20-\x7e]/g, '')} notifications`.trim(),
        ...headers,
      },
    });
  } catch (error) {
    if (error instanceof RefusedSourceAddress)
      throw new DeliveryError(
        `The station may not send to the ${what}'s address: it is the station itself or on a private network (allowed only when 'allow a private network source' is on)`,
      );
    if (context.stopping?.aborted) throw new DeliveryError(`The station stopped before the ${what} answered`);
    if (signal.aborted) throw new DeliveryError(`The ${what} did not answer within ${seconds} s`);
    throw new DeliveryError(`The ${what} could not be reached`);
  }
  const answer = await response.text().catch(() => '');
  if (response.ok) return;
  const reason = withReason ? reasonIn(answer) : undefined;
  throw new DeliveryError(`The ${what} answered ${response.status}${reason ? `: ${reason}` : ''}`);
}

/** Sends one delivery to one target; resolves once it was taken, throws DeliveryError otherwise. */
export async function deliverTo(
  target: NotificationTarget,
  settings: TargetSettings[NotificationTarget],
  delivery: Delivery,
  context: DeliveryContext,
): Promise<void> {
  const { message, event } = delivery;
  switch (target) {
    case 'email': {
      if (!context.mailer) throw new DeliveryError("The station's mail server (SMTP_URL) is not set up");
      const { recipients } = settings as TargetSettings['email'];
      try {
        await context.mailer.sendToStaff({ to: recipients, subject: message.subject, text: message.text });
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        throw new DeliveryError(
          code ? `The mail server refused the e-mail (${code})` : 'The mail server could not be reached',
        );
      }
      return;
    }
    case 'webhook': {
      const { url, secret } = settings as TargetSettings['webhook'];
      const { type, ...details } = event;
      const body = JSON.stringify({
        event: type,
        subject: message.subject,
        text: message.text,
        at: message.at.toISOString(),
        station: { name: context.station.name, timeZone: context.station.timeZone },
        details,
        delivery: delivery.id,
      });
      return postJson(context, 'webhook', url, body, {
        'x-station-event': type,
        'x-station-delivery': delivery.id,
        'x-station-timestamp': String(Math.floor(message.at.getTime() / 1000)),
        'x-station-signature': webhookSignature(secret, body),
      });
    }
    case 'discord': {
      const { webhookUrl } = settings as TargetSettings['discord'];
      // No mention in a text pings anyone: a programme called '@everyone' stays text.
      const body = JSON.stringify({
        content: cut(message.text, DISCORD_LIMIT),
        allowed_mentions: { parse: [] },
      });
      return postJson(context, 'Discord webhook', webhookUrl, body, {}, true);
    }
    case 'telegram': {
      const { botToken, chatId } = settings as TargetSettings['telegram'];
      const url = `${context.telegramApiUrl.replace(/\/+$/, '')}/bot${botToken}/sendMessage`;
      const body = JSON.stringify({
        chat_id: chatId,
        text: message.text,
        link_preview_options: { is_disabled: true },
      });
      return postJson(context, 'Telegram API', url, body, {}, true);
    }
    case 'mastodon': {
      const { instanceUrl, accessToken, visibility } = settings as TargetSettings['mastodon'];
      const body = JSON.stringify({ status: cut(message.text, MASTODON_LIMIT), visibility });
      return postJson(
        context,
        'Mastodon server',
        `${instanceUrl}/api/v1/statuses`,
        body,
        // The same key on a retry: Mastodon posts the status once even if an earlier answer was lost.
        { authorization: `Bearer ${accessToken}`, 'idempotency-key': delivery.id },
        true,
      );
    }
  }
}
