import { z } from 'zod';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** SPEC.md section 3, subscriber list item (staff only). */
export const subscriberListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isActive: z.boolean(),
  /** Issue 10's double opt-in: pending until the confirmation link is opened. Absent from older stations. */
  status: z.enum(['pending', 'confirmed', 'unsubscribed']).optional(),
});
export type SubscriberListItem = z.infer<typeof subscriberListItemSchema>;
export const subscriberListSchema = z.array(subscriberListItemSchema);

import { INVALID_EMAIL } from './newsletter-text.js';

export {
  CONFIRMATION_NOT_SENT_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  INVALID_EMAIL,
  NEWSLETTER_FORM_PATH,
  NEWSLETTER_TEXT,
  SUBSCRIBED_MESSAGE,
} from './newsletter-text.js';
export const MAX_SUBSCRIBER_NAME_LENGTH = 100;

/** SPEC.md section 3: email, name optional. Addresses are kept trimmed and lower-cased, so one is one. */
export const subscribeBodySchema = z.object({
  email: z
    .string({ error: INVALID_EMAIL })
    .trim()
    .max(254, INVALID_EMAIL)
    .pipe(z.email({ error: INVALID_EMAIL }))
    .transform((email) => email.toLowerCase()),
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .max(MAX_SUBSCRIBER_NAME_LENGTH, `Name must be at most ${MAX_SUBSCRIBER_NAME_LENGTH} characters`)
    .refine(isStorableText, `Name ${STORABLE_TEXT_MESSAGE}`)
    .optional()
    .transform((name) => name || undefined),
});
export type SubscribeBody = z.input<typeof subscribeBodySchema>;
