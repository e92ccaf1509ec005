import { z } from 'zod';

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
