import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { escapeHtml } from '../../html.js';

/** An e-mail to one subscriber; the mailer adds the unsubscribe link and headers every such e-mail carries. */
export interface SubscriberEmail {
  to: string;
  subject: string;
  text: string;
  /** Markup, already escaped by the caller. */
  html: string;
  unsubscribeUrl: string;
}

/** A plain-text e-mail to staff (notifications): no unsubscribe link, since staff choose it in the Station tab. */
export interface StaffEmail {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects when it refused or could not be reached. */
  sendToSubscriber(email: SubscriberEmail): Promise<void>;
  /** As sendToSubscriber, for staff: resolves once the SMTP server accepted the message for every recipient. */
  sendToStaff(email: StaffEmail): Promise<void>;
  close(): void;
}

/**
 * The From of the station's e-mail: SMTP_FROM (with the station's name when it gives none), else
 * newsletter@ the host of PUBLIC_URL.
 */
export function fromAddress(
  config: Pick<Config, 'smtpFrom' | 'publicUrl'>,
  stationName: string,
): string | { name: string; address: string } {
  if (config.smtpFrom?.includes('<')) return config.smtpFrom;
  const address = config.smtpFrom ?? `newsletter@${new URL(config.publicUrl ?? 'http://localhost').hostname}`;
  return { name: stationName, address };
}

/** What a subscriber reads: the e-mail with the footer that says why it came and how to stop it. */
export function subscriberMessage(email: Omit<SubscriberEmail, 'to'>, stationName: string) {
  const link = escapeHtml(email.unsubscribeUrl);
  return {
    subject: email.subject,
    text: `${email.text}\n\n--\nYou receive this e-mail because this address subscribed to ${stationName}'s newsletter.\nUnsubscribe: ${email.unsubscribeUrl}\n`,
    html: `${email.html}\n<hr>\n<p style="font-size:12px;color:#64748b">You receive this e-mail because this address subscribed to ${escapeHtml(stationName)}'s newsletter. <a href="${link}">Unsubscribe</a></p>\n`,
  };
}

/**
 * Nodemailer over SMTP_URL, or none when it is unset (subscriptions are then confirmed at once). Every
 * e-mail carries a visible unsubscribe link and RFC 8058's one-click List-Unsubscribe headers.
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'publicUrl'>,
  stationName: () => string,
): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  // Short timeouts: a listener waits on the answer, and an unreachable server must not hold it for minutes.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async sendToSubscriber(email) {
      const name = stationName();
      await transport.sendMail({
        from: fromAddress(config, name),
        to: email.to,
        ...subscriberMessage(email, name),
        list: { unsubscribe: email.unsubscribeUrl },
        headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
    },
    async sendToStaff(email) {
      await transport.sendMail({
        from: fromAddress(config, stationName()),
        to: email.to,
        subject: email.subject,
        text: `${email.text}\n\n--\nSent by ${stationName()} to the staff chosen in the admin panel's Station tab.\n`,
      });
    },
    close: () => transport.close(),
  };
}
