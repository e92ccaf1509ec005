import {
  CHAT_HISTORY_SIZE,
  CHAT_MESSAGE_MAX,
  CHAT_USERNAME_MAX,
  DEFAULT_CHAT_USERNAME,
} from '../../../common/chat-limits.js';
import type { ChatMessage } from '../../../common/chat.js';
import { isStorableText } from '../../../common/text.js';
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';

const toMessage = (row: repository.ChatRow): ChatMessage => ({
  id: row.id,
  username: row.username,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

export type ChatInput = { ok: true; username: string; message: string } | { ok: false; reason: string };

/** Issue 10's limits: username trimmed, 'Anonymous' when empty, cut to 32; message trimmed, 1 to 500. */
export function checkChatInput(username: string, message: string): ChatInput {
  const text = message.trim();
  if (!text) return { ok: false, reason: 'Please enter a message.' };
  if (text.length > CHAT_MESSAGE_MAX)
    return { ok: false, reason: `Messages can be at most ${CHAT_MESSAGE_MAX} characters.` };
  const name = [...username.trim()].slice(0, CHAT_USERNAME_MAX).join('').trim() || DEFAULT_CHAT_USERNAME;
  if (!isStorableText(text) || !isStorableText(name))
    return { ok: false, reason: 'That message contains characters that cannot be sent.' };
  return { ok: true, username: name, message: text };
}

export async function postChatMessage(db: Database, input: { username: string; message: string }) {
  return toMessage(await repository.insertChatMessage(db, input));
}

/** The latest messages, oldest first, as a chat box shows them. */
export async function chatHistory(db: Database): Promise<ChatMessage[]> {
  return (await repository.latestChatMessages(db, CHAT_HISTORY_SIZE)).map(toMessage).reverse();
}
