const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL can store: no NUL and no lone UTF-16 surrogate (either makes the database refuse the
 * whole write). Contracts refuse such text up front with a 400 instead of failing on storing it.
 */
export const isStorableText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
export const STORABLE_TEXT_MESSAGE = 'contains characters that cannot be stored';

/** Control characters (tabs, escapes, newlines…) have no place in a username. */
export const hasNoControlCharacters = (text: string) => !/\p{Cc}/u.test(text);

// Line breaks include the Unicode separators U+2028/U+2029, which break a line as surely as LF does.
const LINE_BREAK_OR_CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * One line of text with no control character: what may go into an HTTP header (icy-name), an e-mail
 * subject or a feed title. Refused at save with a 400 rather than broken at every place it appears.
 */
export const isSingleLineText = (text: string) => !LINE_BREAK_OR_CONTROL.test(text);
export const SINGLE_LINE_TEXT_MESSAGE = 'must not contain line breaks or control characters';

/** Tab, line feed and carriage return are a paragraph's; every other control character is refused. */
export const hasNoStrayControlCharacters = (text: string) => !/[^\P{Cc}\t\n\r]/u.test(text);
export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';
