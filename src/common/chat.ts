import { z } from 'zod';

/** SPEC.md section 3, chat message. */
export const chatMessageSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export { DEFAULT_CHAT_USERNAME } from './chat-limits.js';

/** How many are on the station now (issue 10: the card shows the listener count). */
export const presenceSchema = z.object({
  listening: z.number().int().nonnegative(),
  chatting: z.number().int().nonnegative(),
});
export type Presence = z.infer<typeof presenceSchema>;
