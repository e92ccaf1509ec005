const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL can store: no NUL and no lone UTF-16 surrogate (either makes the database refuse the
 * whole write). Contracts refuse such text up front with a 400 instead of failing on storing it.
 */
export const isStorableText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
/** Text with no lone UTF-16 surrogate (what String.prototype.isWellFormed checks, ES2024). */
export const isWellFormedText = (text: string) => !LONE_SURROGATE.test(text);
export const STORABLE_TEXT_MESSAGE = 'contains characters that cannot be stored';

/** Control characters (tabs, escapes, newlines…) have no place in a username. */
export const hasNoControlCharacters = (text: string) => !/\p{Cc}/u.test(text);
