/** The bus topics that carry chat between app instances. */
export const CHAT_TOPICS = {
  message: 'chat',
  deleted: 'chat_deleted',
  blockedWords: 'chat_blocked_words',
} as const;
