import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedWordsMatcher } from './blocked-words.js';

describe('blockedWordsMatcher', () => {
  const blocked = blockedWordsMatcher(['ass', 'idiota', 'ДУРАК', 'bad words', '笨蛋', 'straße', 'ﬁx']);

  it.each([
    ['an English word, any case', 'You ASS!', true],
    ['not inside a longer word', 'The class is at nine', false],
    ['a Spanish word next to punctuation', '¡Eres un idiota!', true],
    ['a Spanish word inside a longer one', 'idiotas', false],
    ['Cyrillic in another case', 'ты дурак.', true],
    ['a phrase with any spaces between', 'such  bad\twords here', true],
    ['only part of a phrase', 'bad things', false],
    ['Chinese, written without spaces', '你是笨蛋吗', true],
    ['German with its sharp s', 'Die STRASSE ist lang', false],
    ['German as written', 'Die Straße ist lang', true],
    ['a ligature in the entry, plain letters in the text', 'please fix it', true],
    ['full-width letters', 'ＡＳＳ', true],
    ['a word followed by a combining accent is another word', 'asś', false],
    ['an innocent message', 'Grace and peace to you all', false],
  ])('%s', (_case, text, expected) => {
    expect(blocked(text)).toBe(expected);
  });

  it('blocks nothing when the list is empty or blank, and takes regex characters literally', () => {
    expect(blockedWordsMatcher([])('anything at all')).toBe(false);
    expect(blockedWordsMatcher(['  ', ''])('anything')).toBe(false);
    const literal = blockedWordsMatcher(['a.b', '(x)']);
    expect(literal('a.b')).toBe(true);
    expect(literal('acb')).toBe(false);
    expect(literal('say (x) now')).toBe(true);
  });

  it('never throws, whatever staff type as an entry or listeners send', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' })),
        fc.string({ unit: 'grapheme' }),
        (entries, text) => {
          expect(typeof blockedWordsMatcher(entries)(text)).toBe('boolean');
        },
      ),
    );
  });

  it('finds any non-blank entry in a message that is exactly that entry', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => s.trim() !== ''),
        (entry) => {
          expect(blockedWordsMatcher([entry])(entry.trim())).toBe(true);
        },
      ),
    );
  });
});
