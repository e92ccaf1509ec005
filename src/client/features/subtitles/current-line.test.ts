import { describe, expect, it } from 'vitest';
import type { SubtitleEntry } from '../../../common/subtitles';
import { currentLine, withLine } from './current-line';

const at = (timestamp: number, id = `l${timestamp}`): SubtitleEntry => ({
  id,
  timestamp,
  translatedText: `line ${timestamp}`,
});
const lines = [at(30), at(10), at(20)];

describe('currentLine', () => {
  it.each([
    ['nothing heard', null, 6, null],
    ['before the first line', 9.9, 6, null],
    ['exactly at a line', 10, 6, 10],
    ['between lines: the latest not after', 25.5, 6, 20],
    ['the window still holds', 26, 6, 20],
    ['past the overlay window', 26.1, 6, null],
    ['within the hook window', 28, 8, 20],
    ['after the last line', 31, 6, 30],
  ])('%s', (_name, heard, window, expected) => {
    expect(currentLine(lines, heard, window)?.timestamp ?? null).toBe(expected);
  });

  it('has no line without entries', () => {
    expect(currentLine(undefined, 10, 6)).toBeNull();
    expect(currentLine([], 10, 6)).toBeNull();
  });
});

describe('withLine', () => {
  it('adds a pushed line newest first, and one at the same second replaces it (a correction)', () => {
    expect(withLine(lines, at(25)).map((l) => l.timestamp)).toEqual([30, 25, 20, 10]);
    const corrected = withLine(lines, { ...at(20, 'new'), translatedText: 'fixed' });
    expect(corrected.find((l) => l.timestamp === 20)?.translatedText).toBe('fixed');
    expect(corrected).toHaveLength(3);
    expect(withLine(undefined, at(5))).toEqual([at(5)]);
  });
});
