// The prayer card's words and its form's address, without zod, so the home page's code can use them.

/** SPEC.md section 8: the prayer card's messages. */
export const PRAYER_TEXT = {
  blank: 'Please enter your prayer request.',
  failed: 'Failed to submit prayer request. Please try again.',
  submittedTitle: 'Prayer Request Submitted',
  submitted: 'Thank you for your prayer request. Our team will pray for you.',
} as const;

/**
 * Where the served prayer form posts before the page's code has taken it over (docs/decisions/020):
 * a plain form post, answered with a page. Once the code is there the card sends JSON to the API instead.
 */
export const PRAYER_FORM_PATH = '/prayer-requests';
