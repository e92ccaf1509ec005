import { useCallback, useEffect, useState } from 'react';
import type { ChatMessage, Presence } from '../../../common/chat';
import type { WsClient } from '../../lib/ws-client';

/** At most this many messages are kept on screen; the history the station sends is the latest 50. */
const KEEP = 200;

export type ChatStatus = 'connecting' | 'open' | 'closed';

/** Loads the page's socket; the socket class and its schemas stay out of the home page's first script. */
export const loadSharedSocket = (): Promise<WsClient> =>
  import('../../lib/ws-client').then(({ getWsClient }) => getWsClient());

/**
 * The chat's view of the shared /ws socket (STYLE.md habit 5: the class lives outside React, this hook
 * only subscribes): status follows open/close/error, history replaces the list on every (re)connect.
 */
export function useChat(enabled: boolean, load: () => Promise<WsClient> = loadSharedSocket) {
  const [client, setClient] = useState<WsClient>();
  const [status, setStatus] = useState<ChatStatus>('connecting');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [presence, setPresence] = useState<Presence>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    const unsubscribe: (() => void)[] = [];
    void load().then((ws) => {
      if (cancelled) return;
      setClient(ws);
      setStatus(ws.currentStatus);
      unsubscribe.push(
        ws.onStatus(setStatus),
        ws.onMessage((msg) => {
          switch (msg.type) {
            case 'chat_history':
              return setMessages(msg.data.slice(-KEEP));
            case 'chat':
              return setMessages((list) => [...list, msg.data].slice(-KEEP));
            case 'chat_deleted':
              return setMessages((list) => list.filter((m) => m.id !== msg.data.id));
            case 'presence':
              return setPresence(msg.data);
            case 'error':
              return setError(msg.message);
          }
        }),
      );
    });
    return () => {
      cancelled = true;
      for (const u of unsubscribe) u();
    };
  }, [enabled, load]);

  /** SPEC.md section 5: sent only if not blank after trimming and the socket is open. */
  const send = useCallback(
    (username: string, message: string): boolean => {
      if (!message.trim() || !client) return false;
      setError(undefined);
      return client.send({ type: 'chat', username, message: message.trim() });
    },
    [client],
  );

  return { status, messages, presence, error, send };
}
