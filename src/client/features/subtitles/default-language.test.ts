import { describe, expect, it } from 'vitest';
import { subtitleLanguageName } from '../../../common/subtitles';
import { defaultSubtitleLanguage } from './default-language';

describe('the language a new listener reads', () => {
  const available = ['de', 'en', 'es', 'fr', 'pt-BR', 'zh-Hant'];
  it.each<[string, readonly string[], readonly string[], string | null]>([
    ['the browser language when it has lines', available, ['es-ES', 'es'], 'es'],
    ['the exact code first', available, ['pt-BR'], 'pt-BR'],
    ['the same language under another region', available, ['pt-PT'], 'pt-BR'],
    ['a later browser language before the station', available, ['it-IT', 'fr-CA'], 'fr'],
    ['letter case aside', available, ['ZH-hant'], 'zh-Hant'],
    ["the station's language when none of the browser's has lines", available, ['it-IT', 'ja'], 'en'],
    ["the station's language when the browser says nothing", available, [], 'en'],
    ['the first with lines when not even English has any', ['de', 'fr'], ['it'], 'de'],
    ['none while no language has lines', [], ['es'], null],
  ])('%s', (_, codes, browser, expected) => {
    expect(defaultSubtitleLanguage(codes, browser)).toBe(expected);
  });
});

describe('language names in the picker', () => {
  it.each([
    ['en', 'English'],
    ['de', 'German'],
    ['zh', 'Chinese'],
    ['ko', 'Korean'],
    ['it', 'Italian'],
    ['pt-BR', 'Brazilian Portuguese'],
    ['qq', 'QQ'],
    ['en-x1', 'EN-X1'],
  ])('%s is %s', (code, name) => {
    expect(subtitleLanguageName(code)).toBe(name);
  });
});
