import { z } from 'zod';
import { idParamsSchema, tokenParam } from './http.js';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './text.js';

/** The staff Chat tab's API (DESIGN.md section 7: delete, hidden mute, blocked words). */
export const CHAT_MESSAGES_PATH = '/api/chat/messages';
export const CHAT_MUTES_PATH = '/api/chat/mutes';
export const CHAT_BLOCKED_WORDS_PATH = '/api/chat/blocked-words';
export const CHAT_MODERATION_LOG_PATH = '/api/chat/moderation-log';

/** What a listener is told when a message holds a blocked word (the message goes nowhere). */
export const BLOCKED_WORDS_MESSAGE =
  'Please keep the chat kind: your message contains words that are not allowed here.';
export const CHAT_MESSAGE_NOT_FOUND = 'Chat message not found';

/** A message as staff see it: who sent it (a short opaque tag), whether it was hidden or deleted. */
export const staffChatMessageSchema = z.object({
  id: z.string(),
  username: z.string(),
  message: z.string(),
  createdAt: z.string(),
  /** An opaque tag per sender (a keyed hash; never the address). */
  sender: z.string().nullable(),
  /** Sent while its sender was muted: only that sender saw it. */
  muted: z.boolean(),
  deletedAt: z.string().nullable(),
  /** Until when the sender is muted now, if they are. */
  senderMutedUntil: z.string().nullable(),
});
export type StaffChatMessage = z.infer<typeof staffChatMessageSchema>;
export const staffChatMessageListSchema = z.array(staffChatMessageSchema);

/** The mute lengths the tab offers, in minutes: 10 minutes, an hour, a day, a week. */
export const MUTE_MINUTES = [10, 60, 1_440, 10_080] as const;

export const muteBodySchema = z.object({
  messageId: idParamsSchema.shape.id,
  minutes: z
    .number({ error: 'minutes must be a number' })
    .int('minutes must be a whole number')
    .min(1, 'minutes must be at least 1')
    .max(MUTE_MINUTES.at(-1)!, `minutes must be at most ${MUTE_MINUTES.at(-1)}`),
});
export type MuteBody = z.infer<typeof muteBodySchema>;

export const muteSchema = z.object({ sender: z.string(), until: z.string() });

export const senderParamsSchema = z.object({ sender: tokenParam('sender') });

export const MAX_BLOCKED_WORDS = 500;
export const MAX_BLOCKED_WORD_LENGTH = 100;

/** The blocked words and phrases, one entry each; blanks and repeats are dropped. */
export const blockedWordsSchema = z.object({
  words: z
    .array(
      z
        .string({ error: 'Each blocked word must be text' })
        .trim()
        .max(
          MAX_BLOCKED_WORD_LENGTH,
          `A blocked word or phrase can be at most ${MAX_BLOCKED_WORD_LENGTH} characters`,
        )
        .refine(isStorableText, `A blocked word ${STORABLE_TEXT_MESSAGE}`),
      { error: 'words must be a list' },
    )
    .max(MAX_BLOCKED_WORDS, `At most ${MAX_BLOCKED_WORDS} blocked words or phrases`)
    .transform((words) => [...new Set(words.filter(Boolean))]),
});
export type BlockedWords = z.infer<typeof blockedWordsSchema>;

export const moderationActionSchema = z.object({
  id: z.string(),
  action: z.enum(['delete', 'mute', 'unmute', 'blocked_words']),
  target: z.string(),
  detail: z.string().nullable(),
  staffUsername: z.string(),
  createdAt: z.string(),
});
export type ModerationAction = z.infer<typeof moderationActionSchema>;
export const moderationLogSchema = z.array(moderationActionSchema);
