import { useState } from 'react';
import { DEFAULT_CHAT_USERNAME } from '../../../common/chat-limits';

const KEY = 'chat-username';

function read(): string {
  try {
    return localStorage.getItem(KEY) ?? DEFAULT_CHAT_USERNAME;
  } catch {
    return DEFAULT_CHAT_USERNAME;
  }
}

/** The listener's chat name, 'Anonymous' until they change it, kept across visits. */
export function useChatUsername() {
  const [username, setUsername] = useState(read);
  function change(next: string) {
    setUsername(next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Private mode: the name lasts for this page only.
    }
  }
  return [username, change] as const;
}
