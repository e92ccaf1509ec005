// The newsletter's words, without zod, so the home page's first script can use them.

/** SPEC.md sections 5 and 8, the newsletter form. */
export const INVALID_EMAIL = 'Please enter a valid email address';

/** The answers to a subscription (POST /api/email-subscribe), as `{ message }`. */
export const SUBSCRIBED_MESSAGE = 'Subscribed';
/** With double opt-in: the same words whether the address was known or not. */
export const CONFIRMATION_SENT_MESSAGE =
  'Thank you! If this address is not confirmed yet, a link to confirm it is on its way: please check your inbox.';
export const CONFIRMATION_NOT_SENT_MESSAGE =
  'We could not send the confirmation e-mail. Please try again later.';
