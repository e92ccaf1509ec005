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

/**
 * Invisible format characters (Unicode's Cf: zero-width spaces and joiners, U+FEFF, bidi controls…): in a
 * username they make two names that look alike differ, or one look like another.
 */
export const hasNoInvisibleCharacters = (text: string) => !/\p{Cf}/u.test(text);

/** Scripts a name's letters are told apart by; Han and the Japanese kana, or Han and Hangul, go together. */
const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];

/** Letters from one script only: 'аdmin' (a Cyrillic а before Latin letters) is refused; digits go with any. */
export function isSingleScript(text: string): boolean {
  const seen = new Set<string>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    seen.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other');
  }
  return seen.size <= 1;
}

/** Two usernames that would look the same (case, compatibility forms) share this key. */
export const usernameKey = (name: string) => name.normalize('NFKC').toLowerCase();
