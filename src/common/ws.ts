import { z } from 'zod';
import { nowPlayingSchema } from './radio.js';

/**
 * Every WebSocket message on /ws, as a discriminated union parsed on receipt at both ends (STYLE.md habit 2).
 * Features add their members here.
 */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('now_playing'), data: nowPlayingSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('pong') }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
