import { escapeHtml } from '../../html.js';
import { CONFIRM_LINK_DAYS } from './tokens.js';

/**
 * The double opt-in e-mail. It names no one and quotes nothing the subscriber typed: anyone can make
 * the station send it to any address, so it must carry nothing a stranger could use to reach the reader.
 */
export function confirmationEmail(stationName: string, confirmUrl: string) {
  const station = escapeHtml(stationName);
  const link = escapeHtml(confirmUrl);
  return {
    subject: `Please confirm your subscription to ${stationName}`,
    text: [
      `Thank you for subscribing to ${stationName}'s newsletter.`,
      '',
      `Please confirm your address by opening this link (it is valid for ${CONFIRM_LINK_DAYS} days):`,
      confirmUrl,
      '',
      'If you did not ask to subscribe, you can ignore this e-mail: nothing more will be sent to you.',
    ].join('\n'),
    html: [
      `<p>Thank you for subscribing to ${station}'s newsletter.</p>`,
      `<p>Please confirm your address (the link is valid for ${CONFIRM_LINK_DAYS} days):</p>`,
      `<p><a href="${link}">Confirm my subscription</a></p>`,
      `<p>If you did not ask to subscribe, you can ignore this e-mail: nothing more will be sent to you.</p>`,
    ].join('\n'),
  };
}
