import { describe, expect, it } from 'vitest';
import { normalisedWords, wordErrorRate } from './word-error-rate.js';

describe('wordErrorRate', () => {
  it.each([
    ['the lord is my shepherd', 'the lord is my shepherd', 0],
    ['The Lord is my shepherd.', 'the lord is my shepherd', 0],
    ['the lord is my shepherd', 'the lord is my chair paired', 2 / 5],
    ['the lord is my shepherd', 'lord is my shepherd', 1 / 5],
    ['the lord is my shepherd', 'oh the lord is my shepherd', 1 / 5],
    ['the lord', '', 1],
    ['', '', 0],
  ])('%s / %s', (reference, hypothesis, expected) => {
    expect(wordErrorRate(reference, hypothesis)).toBeCloseTo(expected, 5);
  });

  it('reads words as recognisers write them', () => {
    expect(normalisedWords("Psalms 23: the LORD's  shepherd!")).toEqual([
      'psalms',
      '23',
      'the',
      "lord's",
      'shepherd',
    ]);
  });
});
