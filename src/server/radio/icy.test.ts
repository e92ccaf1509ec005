import fc from 'fast-check';
import { IcecastMetadataReader } from 'icecast-metadata-js';
import { describe, expect, it } from 'vitest';
import { ICY_METAINT, icyMetadataBlock } from './icy.js';

/** What an ICY player reads from one block placed after a full interval of audio. */
function readBlock(block: Buffer) {
  const reader = new IcecastMetadataReader({ icyMetaInt: ICY_METAINT, metadataTypes: ['icy'] });
  const bytes = Buffer.concat([Buffer.alloc(ICY_METAINT), block, Buffer.alloc(16)]);
  const found = [...reader.iterator(new Uint8Array(bytes))].flatMap((item) =>
    item.metadata ? [item.metadata] : [],
  );
  expect(found).toHaveLength(1);
  return found[0] as { StreamTitle?: string; StreamClock?: string };
}

const MAX_BLOCK = 1 + 255 * 16;

describe('an ICY metadata block', () => {
  it.each([
    ['Cyrillic', 'Хор - Утренний гимн', 'Хор - Утренний гимн'],
    ['Korean', '성가대 - 아침 찬송', '성가대 - 아침 찬송'],
    ['an emoji', 'Choir 🎶 - Hymn', 'Choir 🎶 - Hymn'],
    ['a quote then a semicolon', "Choir - It';s Morning", 'Choir - It\u2019;s Morning'],
    ['a semicolon', 'Psalm 23; The Lord is my shepherd', 'Psalm 23; The Lord is my shepherd'],
    ['a line break', 'Morning\r\nHymn', 'Morning  Hymn'],
    ['a NUL and a bell', 'Morning\u0000Hymn\u0007', 'Morning Hymn '],
  ])('carries a title with %s to an ICY reader', (_, title, read) => {
    const meta = readBlock(icyMetadataBlock(title, 12.5));
    expect(meta.StreamTitle).toBe(read);
    expect(meta.StreamClock).toBe('12.50');
  });

  it('cuts a title too long for one block between characters, never inside one', () => {
    const meta = readBlock(icyMetadataBlock(`${'𝄞'.repeat(2000)}!`, 3));
    expect(meta.StreamTitle).toMatch(/^(𝄞)+$/u);
    expect(meta.StreamClock).toBe('3.00');
  });

  it('any title, in any Unicode plane, gives one block an ICY reader parses back to the clean title', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (title) => {
        const block = icyMetadataBlock(title, 7);
        expect(block.length).toBeLessThanOrEqual(MAX_BLOCK);
        expect((block.length - 1) % 16).toBe(0);
        const meta = readBlock(block);
        const clean = title.replace(/'/g, '\u2019').replace(/\p{Cc}/gu, ' ');
        expect(meta.StreamTitle).toBe(clean);
        expect(meta.StreamClock).toBe('7.00');
      }),
      { numRuns: 300 },
    );
  });
});
