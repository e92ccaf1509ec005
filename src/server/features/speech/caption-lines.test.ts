import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptionLines, type CaptionLine } from './caption-lines.js';
import type { TimedWord } from './recogniser.js';

const w = (text: string, start: number, end = start + 0.3): TimedWord => ({ text, start, end });

function lines(batches: Array<[TimedWord[], boolean]>, spellings = new Map<string, string>()) {
  const out: CaptionLine[] = [];
  const maker = new CaptionLines((l) => out.push(l), { spellings });
  for (const [words, final] of batches) maker.add(words, final);
  return { out, maker };
}

describe('CaptionLines', () => {
  it('breaks at pauses and at the end of an utterance, in capitals where English wants them', () => {
    const { out } = lines(
      [
        [[w('i', 10.2), w('read', 10.5), w('from', 10.8)], false],
        [[w('habakkuk', 11.1, 11.6)], false],
        [[w('today', 12.6), w('we', 12.9, 13.25)], true],
      ],
      new Map([['habakkuk', 'Habakkuk']]),
    );
    expect(out).toEqual([
      { text: 'I read from Habakkuk', timestamp: 11, start: 10.2, end: 11.6 },
      { text: 'Today we', timestamp: 13, start: 12.6, end: 13.25 },
    ]);
  });

  it('keeps lines short: a long run of words is cut every few seconds', () => {
    const words = Array.from({ length: 30 }, (_, i) => w(`word${i}`, 100 + i * 0.3, 100 + i * 0.3 + 0.25));
    const { out } = lines([[words, true]]);
    for (const line of out) expect(line.end - line.start).toBeLessThanOrEqual(2.5);
    expect(out.map((l) => l.text.toLowerCase()).join(' ')).toBe(words.map((x) => x.text).join(' '));
  });

  it('gives every line its own second, in order, never before its first word', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0.05, max: 2, noNaN: true }),
            fc.double({ min: 0.05, max: 1, noNaN: true }),
          ),
          {
            maxLength: 80,
          },
        ),
        (steps) => {
          let at = 50;
          const words = steps.map(([gap, length], i) => {
            at += gap;
            const word = w(`w${i}`, at, at + length);
            at += length;
            return word;
          });
          const { out, maker } = lines([[words, false]]);
          maker.close();
          for (let i = 1; i < out.length; i++)
            expect(out[i]!.timestamp).toBeGreaterThan(out[i - 1]!.timestamp);
          for (const line of out) expect(line.timestamp).toBeGreaterThanOrEqual(line.start);
          expect(out.flatMap((l) => l.text.toLowerCase().split(' '))).toEqual(words.map((x) => x.text));
        },
      ),
    );
  });
});
