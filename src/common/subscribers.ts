import { z } from 'zod';

/** SPEC.md section 3, subscriber list item (staff only). */
export const subscriberListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  isActive: z.boolean(),
});
export type SubscriberListItem = z.infer<typeof subscriberListItemSchema>;
export const subscriberListSchema = z.array(subscriberListItemSchema);
