// Chat constants without zod, so the home page's first script can use them.

/** SPEC.md section 5: username defaults to 'Anonymous'. */
export const DEFAULT_CHAT_USERNAME = 'Anonymous';
/** a username is at most 32 characters (the server trims and cuts; the field says so early). */
export const CHAT_USERNAME_MAX = 32;
/** a message is trimmed, never blank and at most 500 characters. */
export const CHAT_MESSAGE_MAX = 500;
/** The message box shows how many characters are left once this few remain, before the limit stops typing. */
export const CHAT_MESSAGE_COUNTER_WITHIN = 100;
/** How many recent messages a browser receives on connecting (SPEC.md section 4). */
export const CHAT_HISTORY_SIZE = 50;
/** Flood limit: this many messages in the window, then a pause, told to the sender. */
export const CHAT_FLOOD = { messages: 3, windowMs: 2_000, quietMs: 10_000 } as const;
