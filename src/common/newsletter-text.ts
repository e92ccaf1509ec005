// The newsletter's words, without zod, so the home page's first script can use them.

/** SPEC.md sections 5 and 8, the newsletter form. */
export const INVALID_EMAIL = 'Please enter a valid email address';
/** SPEC.md sections 6 and 8: the view after a subscription, and the toasts. */
export const NEWSLETTER_TEXT = {
  thanks: 'Thank you for subscribing!',
  subscribedTitle: 'Successfully subscribed!',
  subscribed: 'You will receive station updates and Christian content by e-mail.',
  failedTitle: 'Subscription failed',
  failed: 'Failed to subscribe. Please try again.',
} as const;

/**
 * Where the served newsletter form posts before the page's code has taken it over (docs/decisions/020):
 * a plain form post, answered with a page. Once the code is there the form sends JSON to the API instead.
 */
export const NEWSLETTER_FORM_PATH = '/newsletter/subscribe';

/** The answers to a subscription (POST /api/email-subscribe), as `{ message }`. */
export const SUBSCRIBED_MESSAGE = 'Subscribed';
/** With double opt-in: the same words whether the address was known or not. */
export const CONFIRMATION_SENT_MESSAGE =
  'Thank you! If this address is not confirmed yet, a link to confirm it is on its way: please check your inbox.';
export const CONFIRMATION_NOT_SENT_MESSAGE =
  'We could not send the confirmation e-mail. Please try again later.';
