import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  NOTIFICATION_TARGET_LABELS,
  NOTIFICATION_TARGETS,
  type DeliveryResult,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationTarget,
  type StationEvent,
} from '../../../common/notifications.js';
import { stationCheckedFetch } from '../radio/service.js';
import { deliverTo, DeliveryError, type DeliveryContext, type StaffMailer } from './deliver.js';
import { messageFor, type AnyEvent } from './messages.js';
import { DEFAULT_TIMINGS, DeliveryQueue, type QueueTimings } from './queue.js';
import { readTargetRows, writeLastResult, writeTargetRows } from './repository.js';
import { mergeInput, missingFor, targetRows, targetsFrom, targetsView, type Targets } from './targets.js';

export type { StationEvent } from '../../../common/notifications.js';
export type { StaffMailer } from './deliver.js';
export { webhookSignature } from './deliver.js';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

export interface NotificationOptions {
  /** The station's SMTP mailer (subscribers' createMailer); without it e-mail cannot be switched on. */
  mailer?: StaffMailer;
  /** Retry delays, request timeout and queue bound; the defaults are DEFAULT_TIMINGS. */
  timings?: Partial<QueueTimings>;
  /** Telegram's Bot API address: only tests point it elsewhere. */
  telegramApiUrl?: string;
}

/** Staff's settings refused: the message is the 400's. */
export class NotificationSettingsError extends Error {}

export interface Notifications {
  /**
   * Tells staff of an event through every target that is on and chose it. Returns at once and never throws:
   * deliveries are queued and retried in the background, so the broadcast never waits on them.
   */
  notify(event: StationEvent): void;
  /** The Station tab's view: every target's settings (secrets only as 'set') and last result. */
  settings(): Promise<NotificationSettings>;
  /** Saves the Station tab's targets; throws NotificationSettingsError (nothing saved) when one is incomplete. */
  save(input: NotificationSettingsInput): Promise<NotificationSettings>;
  /**
   * Sends a test message to one target now, once, with its saved settings (on or off), and keeps the result as
   * its last one. Throws NotificationSettingsError when the target is not set up.
   */
  sendTest(target: NotificationTarget): Promise<DeliveryResult>;
  /** Stops the queue; deliveries under way finish within their timeout. */
  close(): Promise<void>;
}

const humanDelay = (ms: number) =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;

/**
 * The station's notifications ('Staff told', issue 23): targets staff set in the Station tab, a queue that
 * delivers with retries and backoff, and each target's last result. Requests go out only as the Station tab's
 * stream source would (never to the station itself, private networks only when allowed).
 */
export function openNotifications(app: FastifyInstance, options: NotificationOptions = {}): Notifications {
  const timings: QueueTimings = { ...DEFAULT_TIMINGS, ...options.timings };
  const queue = new DeliveryQueue(timings, { warn: (message) => app.log.warn(message) });
  const fetch = stationCheckedFetch(app);
  const emailAvailable = options.mailer !== undefined;
  const context = (stopping?: AbortSignal): DeliveryContext => ({
    stopping,
    fetch,
    mailer: options.mailer,
    station: app.station(),
    telegramApiUrl: options.telegramApiUrl ?? TELEGRAM_API_URL,
    timeoutMs: timings.timeoutMs,
  });
  const targets = async (): Promise<Targets> => targetsFrom(await readTargetRows(app.db));
  const keep = async (target: NotificationTarget, result: DeliveryResult) => {
    await writeLastResult(app.db, target, result);
  };

  const send = async (
    target: NotificationTarget,
    all: Targets,
    event: AnyEvent,
    at: Date,
    id: string,
    stopping?: AbortSignal,
  ) => {
    const delivery = { id, event, message: messageFor(event, app.station(), at) };
    await deliverTo(target, all[target].settings, delivery, context(stopping));
  };

  const enqueue = async (event: StationEvent, at: Date) => {
    const all = await targets();
    for (const target of NOTIFICATION_TARGETS) {
      const chosen = all[target];
      if (!chosen.enabled || !chosen.events.includes(event.type)) continue;
      if (missingFor(target, chosen, emailAvailable)) continue;
      const id = randomUUID();
      const label = `${event.type} to ${NOTIFICATION_TARGET_LABELS[target]}`;
      queue.add({
        label,
        send: () => send(target, all, event, at, id, queue.stopping),
        async report(outcome) {
          const message = outcome.ok
            ? 'Delivered'
            : outcome.retryInMs !== undefined
              ? `${outcome.reason} (trying again in ${humanDelay(outcome.retryInMs)})`
              : outcome.reason;
          if (!outcome.ok) app.log.warn(`Notification ${label}: ${message}`);
          await keep(target, { at: new Date().toISOString(), ok: outcome.ok, message });
        },
      });
    }
  };

  let queued = Promise.resolve();
  return {
    notify(event) {
      try {
        const at = new Date();
        // One after another, so deliveries are queued in the order the events happened.
        queued = queued
          .then(() => enqueue(event, at))
          .catch((error: unknown) => {
            app.log.error({ err: error, event: event.type }, 'A notification could not be queued');
          });
      } catch (error) {
        app.log.error({ err: error }, 'A notification could not be queued');
      }
    },
    async settings() {
      return targetsView(await targets(), emailAvailable);
    },
    async save(input) {
      const next = mergeInput(await targets(), input);
      for (const target of NOTIFICATION_TARGETS) {
        if (!next[target].enabled) continue;
        const missing = missingFor(target, next[target], emailAvailable);
        if (missing) throw new NotificationSettingsError(`${missing} before it can be switched on`);
      }
      await writeTargetRows(app.db, targetRows(next));
      return targetsView(await targets(), emailAvailable);
    },
    async sendTest(target) {
      const all = await targets();
      const missing = missingFor(target, all[target], emailAvailable);
      if (missing) throw new NotificationSettingsError(`Nothing sent: ${missing}`);
      let result: DeliveryResult;
      try {
        await send(
          target,
          all,
          { type: 'test', target: NOTIFICATION_TARGET_LABELS[target] },
          new Date(),
          randomUUID(),
        );
        result = { at: new Date().toISOString(), ok: true, message: 'Delivered' };
      } catch (error) {
        const message =
          error instanceof DeliveryError ? error.message : 'The test could not be sent (see the station log)';
        if (!(error instanceof DeliveryError)) app.log.error({ err: error }, 'A test notification failed');
        result = { at: new Date().toISOString(), ok: false, message };
      }
      await keep(target, result);
      return result;
    },
    async close() {
      // Events told just before are queued (or dropped, once closed) before the database goes.
      await queued;
      await queue.close();
    },
  };
}
