import { createHmac } from 'node:crypto';
import {
  CHAT_HISTORY_SIZE,
  CHAT_MESSAGE_MAX,
  CHAT_USERNAME_MAX,
  DEFAULT_CHAT_USERNAME,
} from '../../../common/chat-limits.js';
import type { ChatMessage } from '../../../common/chat.js';
import type { ModerationAction, StaffChatMessage } from '../../../common/chat-moderation.js';
import { BLOCKED_WORDS_MESSAGE } from '../../../common/chat-moderation.js';
import { isStorableText } from '../../../common/text.js';
import type { Database } from '../../db/client.js';
import { addressKey } from '../accounts/service.js';
import { chatBlockedWords, saveChatBlockedWords, signingSecret } from '../settings/service.js';
import { blockedWordsMatcher } from './blocked-words.js';
import * as repository from './repository.js';

/** How many messages the staff Chat tab lists. */
const STAFF_LIST_SIZE = 200;
const MODERATION_LOG_SIZE = 100;

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

/** Where a message comes from, as the server knows it: the browser's own id when it gave one, and its address. */
export interface ChatOrigin {
  browserId: string | undefined;
  ip: string;
}

/** A sender as a mute sees them: keyed hashes only, never the browser's id or the address itself. */
export interface Sender {
  /** The opaque tag a mute applies to: the browser's id, or without one its address. */
  tag: string;
  /** The network the message came from (an IPv4 address or an IPv6 /64). */
  network: string;
  /** Whether the browser gave its own id. */
  fromBrowser: boolean;
}

export type Posted =
  | { outcome: 'refused'; reason: string }
  /** Everyone sees it. */
  | { outcome: 'shared'; message: ChatMessage }
  /** Its sender is muted: only the sender sees it, and is not told. */
  | { outcome: 'hidden'; message: ChatMessage };

export interface ChatService {
  senderOf(origin: ChatOrigin): Sender;
  post(sender: Sender, input: { username: string; message: string }): Promise<Posted>;
  /** The latest messages, oldest first, as this sender's chat box shows them (their hidden ones too). */
  history(sender: string): Promise<ChatMessage[]>;
  /** Reads the blocked words again (another instance changed them). */
  reloadBlockedWords(): Promise<void>;
}

export async function openChat(db: Database): Promise<ChatService> {
  const secret = await signingSecret(db);
  let isBlocked = blockedWordsMatcher(await chatBlockedWords(db));
  return {
    senderOf({ browserId, ip }) {
      // The purpose goes into the hash, so a sender's tag can never stand for a signed link.
      const hash = (identity: string) =>
        createHmac('sha256', secret).update(`chat-sender\n${identity}`).digest('base64url').slice(0, 22);
      return {
        tag: hash(browserId ? `browser:${browserId}` : `address:${ip}`),
        network: hash(`network:${addressKey(ip)}`),
        fromBrowser: browserId !== undefined,
      };
    },
    async post(sender, input) {
      if (isBlocked(input.message) || isBlocked(input.username))
        return { outcome: 'refused', reason: BLOCKED_WORDS_MESSAGE };
      const row = await repository.insertChatMessage(db, input, sender);
      return { outcome: row.muted ? 'hidden' : 'shared', message: toMessage(row) };
    },
    async history(sender) {
      return (await repository.latestChatMessages(db, CHAT_HISTORY_SIZE, sender)).map(toMessage).reverse();
    },
    async reloadBlockedWords() {
      isBlocked = blockedWordsMatcher(await chatBlockedWords(db));
    },
  };
}

/** The Chat tab's list: the latest messages of every kind, newest first, with who is muted now. */
export async function messagesForStaff(db: Database): Promise<StaffChatMessage[]> {
  const rows = await repository.latestMessagesForStaff(db, STAFF_LIST_SIZE);
  const senders = [...new Set(rows.flatMap((row) => (row.sender ? [row.sender] : [])))];
  const mutes = await repository.activeMutes(db, senders);
  return rows.map((row) => ({
    ...toMessage(row),
    sender: row.sender,
    muted: row.muted,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    senderMutedUntil: (row.sender && mutes.get(row.sender)?.toISOString()) || null,
  }));
}

/** Deletes a message for everyone, recorded with who did it; false when there was none to delete. */
export async function deleteMessage(db: Database, id: string, staffUsername: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const row = await repository.markDeleted(t, id);
    if (!row) return false;
    await repository.logModeration(t, {
      action: 'delete',
      target: id,
      detail: `${row.username}: ${row.message}`,
      staffUsername,
    });
    return true;
  });
}

/** Mutes the sender of a message for a while; null when the message is unknown. */
export async function muteSenderOf(
  db: Database,
  messageId: string,
  minutes: number,
  staffUsername: string,
): Promise<{ sender: string; until: string } | null> {
  const message = await repository.findChatMessage(db, messageId);
  if (!message?.sender) return null;
  const sender = message.sender;
  const until = new Date(Date.now() + minutes * 60_000);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await repository.muteUntil(t, sender, message.network, until);
    await repository.logModeration(t, {
      action: 'mute',
      target: sender,
      detail: `${minutes} minutes, after '${message.username}: ${message.message}'`,
      staffUsername,
    });
  });
  return { sender, until: until.toISOString() };
}

export async function unmuteSender(db: Database, sender: string, staffUsername: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if (!(await repository.unmute(t, sender))) return false;
    await repository.logModeration(t, { action: 'unmute', target: sender, detail: null, staffUsername });
    return true;
  });
}

export const blockedWords = chatBlockedWords;

export async function saveBlockedWords(db: Database, words: string[], staffUsername: string) {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await saveChatBlockedWords(t, words);
    await repository.logModeration(t, {
      action: 'blocked_words',
      target: String(words.length),
      detail: words.join(', ').slice(0, 1_000),
      staffUsername,
    });
  });
}

export async function moderationLog(db: Database): Promise<ModerationAction[]> {
  return (await repository.latestModeration(db, MODERATION_LOG_SIZE)).map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
  }));
}
