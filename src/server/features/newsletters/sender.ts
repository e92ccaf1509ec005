import type { Database } from '../../db/client.js';
import { isConfirmedSubscriber, unsubscribeUrlFor, type Mailer } from '../subscribers/service.js';
import { newsletterEmail } from './emails.js';
import {
  claimNextDelivery,
  finishSentNewsletters,
  markInterruptedUnknown,
  nextDueAt,
  settleDelivery,
  type Delivery,
} from './repository.js';

export interface SenderTimings {
  /** Waits before the 2nd, 3rd… attempt of a refused address; after the last, it is reported failed. */
  retryDelaysMs: number[];
  /** How often an idle sender looks for a newsletter queued by another instance (a web instance). */
  pollMs: number;
}

/** Three attempts in all: a minute apart, then five. A refusal that outlasts them is reported, not retried. */
export const DEFAULT_SENDER_TIMINGS: SenderTimings = { retryDelaysMs: [60_000, 5 * 60_000], pollMs: 5_000 };

export interface SenderDeps {
  db: Database;
  mailer: Mailer;
  /** PUBLIC_URL: where the unsubscribe link and an uploaded picture point. */
  origin: string;
  timings: SenderTimings;
  log: { warn(object: object, message: string): void };
}

/** The SMTP server's own answer when it gave one (`550 Mailbox unavailable`), else what went wrong. */
export function smtpAnswer(error: unknown): string {
  const { response, message } = (error ?? {}) as { response?: unknown; message?: unknown };
  const answer = typeof response === 'string' && response ? response : String(message ?? error);
  return answer.slice(0, 500);
}

/**
 * Sends the queued newsletters in the background, one message at a time, `paceMs` apart, whatever the
 * page that started them does. Each recipient's state is in the database, so a new process goes on where
 * the last one stopped (docs/decisions/029).
 */
export class NewsletterSender {
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: SenderDeps) {}

  start(): void {
    this.running = this.loop();
  }

  /** A newsletter was queued here: look now rather than at the next poll. */
  kick(): void {
    this.wake?.();
  }

  /** Lets the message under way be sent and recorded, then stops: nothing is left `sending`. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    let recovered = false;
    while (!this.stopped) {
      try {
        // First what the last process left undecided, so nothing `sending` is ever taken again.
        if (!recovered) {
          await markInterruptedUnknown(this.deps.db);
          recovered = true;
        }
        const delivery = await claimNextDelivery(this.deps.db, new Date());
        if (!delivery) {
          await finishSentNewsletters(this.deps.db);
          const due = await nextDueAt(this.deps.db);
          const wait = due ? due.getTime() - Date.now() : this.deps.timings.pollMs;
          await this.idle(Math.max(0, Math.min(wait, this.deps.timings.pollMs)), true);
          continue;
        }
        const started = Date.now();
        if (await this.deliver(delivery)) await this.idle(delivery.paceMs - (Date.now() - started), false);
      } catch (error) {
        // The database went away for a moment: wait, then look again (nothing was sent unrecorded).
        this.deps.log.warn({ err: error }, 'newsletter sending paused on an error');
        await this.idle(this.deps.timings.pollMs, false);
      }
    }
  }

  /** One attempt at one address. False when nothing was sent (the address left), so no pause is due. */
  private async deliver(delivery: Delivery): Promise<boolean> {
    const { db, mailer, origin, timings } = this.deps;
    const subscriber = { id: delivery.subscriberId, email: delivery.email };
    // Unsubscribed (or pending again) since the newsletter was queued: sent nothing.
    if (!(await isConfirmedSubscriber(db, subscriber.id))) {
      await settleDelivery(db, delivery, { state: 'skipped' });
      return false;
    }
    const unsubscribeUrl = await unsubscribeUrlFor(db, origin, subscriber);
    try {
      await mailer.sendToSubscriber({
        to: subscriber.email,
        ...newsletterEmail(delivery, origin),
        unsubscribeUrl,
      });
    } catch (error) {
      const retryIn = timings.retryDelaysMs[delivery.attempts - 1];
      const answer = smtpAnswer(error);
      await settleDelivery(
        db,
        delivery,
        retryIn === undefined
          ? { state: 'failed', error: answer }
          : { state: 'queued', error: answer, nextAt: new Date(Date.now() + retryIn) },
      );
      return true;
    }
    await settleDelivery(db, delivery, { state: 'sent' });
    return true;
  }

  /** Waits, cut short by stop() (and by kick() when `wakeable`: a pause between messages is kept). */
  private idle(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = wakeable ? done : () => this.stopped && done();
    });
  }
}
