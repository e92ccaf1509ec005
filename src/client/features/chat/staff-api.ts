import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  CHAT_BLOCKED_WORDS_PATH,
  CHAT_MESSAGES_PATH,
  CHAT_MODERATION_LOG_PATH,
  CHAT_MUTES_PATH,
  blockedWordsSchema,
  moderationLogSchema,
  staffChatMessageListSchema,
  type MuteBody,
} from '../../../common/chat-moderation';
import { apiGetParsed, apiSend } from '../../lib/api-request';
import { loadSharedSocket } from './use-chat';

/** Hidden messages reach no socket, so the list is also read again this often. */
const REFRESH_MS = 5_000;

const messagesQuery = () =>
  queryOptions({
    queryKey: [CHAT_MESSAGES_PATH],
    queryFn: () => apiGetParsed(CHAT_MESSAGES_PATH, staffChatMessageListSchema),
    refetchInterval: REFRESH_MS,
  });
const blockedWordsQuery = () =>
  queryOptions({
    queryKey: [CHAT_BLOCKED_WORDS_PATH],
    queryFn: () => apiGetParsed(CHAT_BLOCKED_WORDS_PATH, blockedWordsSchema),
  });
const moderationLogQuery = () =>
  queryOptions({
    queryKey: [CHAT_MODERATION_LOG_PATH],
    queryFn: () => apiGetParsed(CHAT_MODERATION_LOG_PATH, moderationLogSchema),
  });

/** The latest messages of every kind, read again as soon as the chat moves on the page's socket. */
export function useStaffChatMessages() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    void loadSharedSocket().then((ws) => {
      if (cancelled) return;
      unsubscribe = ws.onMessage((message) => {
        if (message.type === 'chat' || message.type === 'chat_deleted')
          void queryClient.invalidateQueries({ queryKey: messagesQuery().queryKey });
      });
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [queryClient]);
  return useQuery(messagesQuery());
}

export const useBlockedWords = () => useQuery(blockedWordsQuery());
export const useModerationLog = () => useQuery(moderationLogQuery());

/** A moderation action: afterwards the list, the words and the record are read again. */
function useModeration<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all(
        [messagesQuery(), blockedWordsQuery(), moderationLogQuery()].map((q) =>
          queryClient.invalidateQueries({ queryKey: q.queryKey }),
        ),
      ),
  });
}

export const useDeleteChatMessage = () =>
  useModeration((id: string) => apiSend('DELETE', `${CHAT_MESSAGES_PATH}/${encodeURIComponent(id)}`));
export const useMuteSender = () => useModeration((body: MuteBody) => apiSend('POST', CHAT_MUTES_PATH, body));
export const useUnmuteSender = () =>
  useModeration((sender: string) => apiSend('DELETE', `${CHAT_MUTES_PATH}/${encodeURIComponent(sender)}`));
export const useSaveBlockedWords = () =>
  useModeration((words: string[]) => apiSend('PUT', CHAT_BLOCKED_WORDS_PATH, { words }, blockedWordsSchema));
