import { z } from 'zod';
import { chatMessageSchema, presenceSchema } from './chat.js';
import { nowPlayingSchema } from './radio.js';
import { subtitleLanguageSchema, subtitlePushSchema } from './subtitles.js';

/**
 * Every WebSocket message on /ws, as a discriminated union parsed on receipt at both ends (STYLE.md habit 2).
 * Features add their members here.
 */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('now_playing'), data: nowPlayingSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('chat'), data: chatMessageSchema }),
  z.object({ type: z.literal('chat_history'), data: z.array(chatMessageSchema) }),
  z.object({
    type: z.literal('chat_deleted'),
    data: z.object({ id: z.union([z.string(), z.number()]).transform(String) }),
  }),
  z.object({ type: z.literal('presence'), data: presenceSchema }),
  // A new subtitle line, sent to the listeners who chose its language.
  z.object({ type: z.literal('subtitle'), data: subtitlePushSchema }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  // SPEC.md section 3: the client sends type 'chat', username, message.
  z.object({ type: z.literal('chat'), username: z.string(), message: z.string() }),
  // Which language's new subtitle lines this listener wants pushed (null: none).
  z.object({ type: z.literal('subtitles_language'), language: subtitleLanguageSchema.nullable() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
