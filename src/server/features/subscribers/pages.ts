import {
  CONFIRMATION_SENT_MESSAGE,
  NEWSLETTER_FORM_PATH,
  NEWSLETTER_TEXT,
} from '../../../common/newsletter-text.js';
import { formPage, NO_INDEX, renderPlainForm, HOME_LINK, type SmallPageAnswer } from '../../form-pages.js';
import { escapeHtml, renderSmallPage } from '../../html.js';
import type { ConfirmOutcome } from './service.js';

/** The newsletter's own pages, opened from its e-mails: plain HTML in the station's small-page shell. */
export type NewsletterPage = SmallPageAnswer;

const HOME = '<div class="links"><a href="/">Listen live</a></div>';

function page(status: 200 | 400, stationName: string, title: string, body: string): NewsletterPage {
  return {
    status,
    html: renderSmallPage({
      title,
      stationName,
      head: NO_INDEX,
      body: `  <h1>${escapeHtml(title)}</h1>\n${body}`,
    }),
  };
}

export const invalidLinkPage = (stationName: string) =>
  page(
    400,
    stationName,
    'This link is not valid',
    '  <p>It may have been cut short or changed on the way. Open it again from the e-mail, or copy the whole link into the address bar.</p>\n' +
      `  ${HOME}`,
  );

export function confirmPage(outcome: ConfirmOutcome, stationName: string): NewsletterPage {
  const station = escapeHtml(stationName);
  switch (outcome) {
    case 'confirmed':
      return page(
        200,
        stationName,
        'Subscription confirmed',
        `  <p>Thank you! You will receive station updates and Christian content from ${station} by e-mail.</p>\n  ${HOME}`,
      );
    case 'expired':
      return page(
        400,
        stationName,
        'This confirmation link has expired',
        '  <p>Subscribe again with the form on the home page and we will send you a new link.</p>\n' +
          `  ${HOME}`,
      );
    case 'withdrawn':
      return page(
        400,
        stationName,
        'This address was unsubscribed',
        '  <p>It was unsubscribed after this link was sent, so the link no longer confirms it. To receive our e-mail again, subscribe with the form on the home page.</p>\n' +
          `  ${HOME}`,
      );
    case 'invalid':
      return invalidLinkPage(stationName);
  }
}

/** GET: asks first, since mail scanners open links; the button POSTs to the same address. */
export function unsubscribeQuestionPage(
  token: string,
  alreadyUnsubscribed: boolean,
  stationName: string,
): NewsletterPage {
  const station = escapeHtml(stationName);
  if (alreadyUnsubscribed)
    return page(
      200,
      stationName,
      'You are unsubscribed',
      `  <p>This address receives no e-mail from ${station}.</p>\n  ${HOME}`,
    );
  const action = escapeHtml(`/unsubscribe?token=${encodeURIComponent(token)}`);
  return page(
    200,
    stationName,
    'Unsubscribe from the newsletter?',
    `  <p>${station} will send no more e-mail to this address.</p>\n` +
      `  <form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function unsubscribedPage(done: boolean, stationName: string): NewsletterPage {
  if (!done) return invalidLinkPage(stationName);
  return page(
    200,
    stationName,
    'You have been unsubscribed',
    `  <p>You will receive no more e-mail from ${escapeHtml(stationName)}. Changed your mind? Subscribe again on the home page.</p>\n  ${HOME}`,
  );
}

/**
 * The answers to the home page's newsletter form when it was posted as a plain form, before the page's
 * code had arrived (docs/decisions/020): the form's thanks on a page of its own, or the form again.
 */
export const subscribedPage = (confirmationSent: boolean, stationName: string): NewsletterPage =>
  formPage(200, stationName, {
    title: NEWSLETTER_TEXT.thanks,
    body:
      `  <p>${escapeHtml(confirmationSent ? CONFIRMATION_SENT_MESSAGE : NEWSLETTER_TEXT.subscribed)}</p>\n` +
      `  ${HOME_LINK}`,
  });

export interface SubscribeFormProblem {
  status: number;
  field?: 'email' | 'name';
  message: string;
}

/** The 'Stay Connected' form, with what was typed and what went wrong. */
export function subscribeFormPage(
  values: { email: string; name: string },
  problem: SubscribeFormProblem,
  stationName: string,
): NewsletterPage {
  const errorOf = (field: SubscribeFormProblem['field']) =>
    problem.field === field ? problem.message : undefined;
  const form = renderPlainForm({
    action: NEWSLETTER_FORM_PATH,
    fields: [
      {
        name: 'email',
        label: 'Email',
        type: 'email',
        value: values.email,
        autocomplete: 'email',
        error: errorOf('email'),
      },
      {
        name: 'name',
        label: 'Name (optional)',
        value: values.name,
        autocomplete: 'name',
        error: errorOf('name'),
      },
    ],
    error: problem.field ? undefined : problem.message,
    submit: 'Subscribe',
  });
  return formPage(problem.status, stationName, {
    title: 'Stay Connected',
    body: `  <p>Get station updates, new programs and encouragement in your inbox.</p>\n${form}\n  ${HOME_LINK}`,
  });
}
