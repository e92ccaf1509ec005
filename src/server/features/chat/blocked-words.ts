/**
 * The chat's blocked words, for any language: text is compared after Unicode normalisation (NFKC, so
 * full-width and ligature forms match their plain letters) and case folding; a word or phrase matches
 * whole, never inside a longer word ("ass" does not block "class"), with any run of spaces between the
 * words of a phrase. Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer,
 * Burmese) have no word edges to find, so an entry in one of them matches wherever it appears.
 */

const WITHOUT_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A letter, a combining mark or a digit: what a word is made of. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}]';

export const foldText = (text: string) => text.normalize('NFKC').toLowerCase();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function pattern(entry: string): string {
  const words = foldText(entry).trim().split(/\s+/u).map(escape).join('\\s+');
  return WITHOUT_SPACES.test(entry) ? words : `(?<!${WORD_CHAR})${words}(?!${WORD_CHAR})`;
}

/** A test for the given entries (blank ones ignored); with none, nothing is blocked. */
export function blockedWordsMatcher(entries: readonly string[]): (text: string) => boolean {
  const patterns = entries
    .filter((entry) => entry.trim())
    .sort((a, b) => b.length - a.length)
    .map(pattern);
  if (patterns.length === 0) return () => false;
  const regex = new RegExp(patterns.join('|'), 'u');
  return (text) => regex.test(foldText(text));
}
