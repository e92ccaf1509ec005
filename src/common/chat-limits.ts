// Chat constants without zod, so the home page's first script can use them.

/** SPEC.md section 5: username defaults to 'Anonymous'. */
export const DEFAULT_CHAT_USERNAME = 'Anonymous';
/** Issue 10: a username is at most 32 characters (the server trims and cuts; the field says so early). */
export const CHAT_USERNAME_MAX = 32;
