import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { FrameParser, id3v2Size, parseFrameHeader, silentFrame } from './mp3-frames.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

let tagged: Buffer;
let low: Buffer;

beforeAll(async () => {
  const dir = await tempAudioDir();
  // ffmpeg writes an ID3v2 tag and a Xing/Info frame before the audio.
  tagged = await readFile(
    await makeMp3(join(dir, 'tagged.mp3'), {
      seconds: 2,
      extra: ['-metadata', 'title=Morning Hymn', '-metadata', 'artist=Choir'],
    }),
  );
  low = await readFile(
    await makeMp3(join(dir, 'low.mp3'), { seconds: 2, bitrate: '32k', sampleRate: 22050 }),
  );
}, 30_000);

const all = (parser: FrameParser, chunks: Buffer[]) => [
  ...chunks.flatMap((c) => parser.push(c)),
  ...parser.end(),
];
const seconds = (frames: { duration: number }[]) => frames.reduce((s, f) => s + f.duration, 0);

describe('MP3 frame parser', () => {
  it('reads MPEG-1 Layer III headers: bitrate, sample rate, padding, length and duration', () => {
    const h = parseFrameHeader(Buffer.from([0xff, 0xfb, 0x92, 0x64]))!; // 128 kbps, 44.1 kHz, padded
    expect(h).toMatchObject({
      version: 1,
      bitrateKbps: 128,
      sampleRate: 44100,
      samplesPerFrame: 1152,
      length: 418,
    });
    expect(h.duration).toBeCloseTo(1152 / 44100, 9);
  });

  it('reads MPEG-2 and MPEG-2.5 headers and refuses other layers, free format and bad indexes', () => {
    expect(parseFrameHeader(Buffer.from([0xff, 0xf3, 0x40, 0xc4]))).toMatchObject({
      version: 2,
      bitrateKbps: 32,
      sampleRate: 22050,
      samplesPerFrame: 576,
      length: 104,
    });
    expect(parseFrameHeader(Buffer.from([0xff, 0xe3, 0x10, 0xc4]))).toMatchObject({
      version: 2.5,
      bitrateKbps: 8,
      sampleRate: 11025,
    });
    expect(parseFrameHeader(Buffer.from([0xff, 0xfd, 0x90, 0x64]))).toBeNull(); // Layer II
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0x00, 0x64]))).toBeNull(); // free format
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0xf0, 0x64]))).toBeNull(); // bitrate index 15
    expect(parseFrameHeader(Buffer.from([0xff, 0xfb, 0x9c, 0x64]))).toBeNull(); // sample rate index 3
    expect(parseFrameHeader(Buffer.from([0xff, 0xeb, 0x90, 0x64]))).toBeNull(); // reserved version
  });

  it('skips the ID3v2 tag and the Xing/Info frame, keeping exactly the audio frames', () => {
    expect(id3v2Size(tagged)).toBeGreaterThan(10);
    const frames = all(new FrameParser(), [tagged]);
    // 2 s at 44.1 kHz plus the encoder's priming: about 78 frames, none of them the Info frame.
    expect(seconds(frames)).toBeGreaterThan(1.99);
    expect(seconds(frames)).toBeLessThan(2.1);
    expect(frames.every((f) => !f.data.includes('Info') && !f.data.includes('Xing'))).toBe(true);
    expect(frames.every((f) => f.data[0] === 0xff && f.data.length === f.header.length)).toBe(true);
  });

  it('paces MPEG-2 (22.05 kHz, 32 kbps) files by their own frame durations', () => {
    const frames = all(new FrameParser(), [low]);
    expect(frames[0]!.header).toMatchObject({ version: 2, sampleRate: 22050, samplesPerFrame: 576 });
    expect(seconds(frames)).toBeGreaterThan(1.99);
    expect(seconds(frames)).toBeLessThan(2.15);
  });

  it('gives the same frames however the bytes are split (a live encoder sends arbitrary chunks)', () => {
    const whole = all(new FrameParser(), [tagged]).map((f) => f.data.toString('hex'));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: tagged.length - 1 }), { maxLength: 40 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => tagged.subarray(start, points[i] ?? tagged.length));
        const got = all(new FrameParser(), chunks).map((f) => f.data.toString('hex'));
        expect(got).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it("takes our own encoder's frames as soon as they are whole (trusted), however the bytes are split", () => {
    const frames = all(new FrameParser(), [tagged]);
    const audio = Buffer.concat(frames.map((f) => f.data));
    // One frame fed alone comes out at once: an untrusted parser waits for the next header.
    expect(new FrameParser({ trusted: true }).push(frames[0]!.data)).toHaveLength(1);
    expect(new FrameParser().push(frames[0]!.data)).toHaveLength(0);
    const whole = frames.map((f) => f.data.toString('hex'));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: audio.length - 1 }), { maxLength: 40 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => audio.subarray(start, points[i] ?? audio.length));
        const parser = new FrameParser({ trusted: true });
        // Everything is out before the end: no frame waits for bytes after it.
        const got = chunks.flatMap((c) => parser.push(c)).map((f) => f.data.toString('hex'));
        expect(parser.end()).toEqual([]);
        expect(got).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('resynchronises after junk and never emits a frame from garbage', () => {
    const frames = all(new FrameParser(), [tagged]);
    const junk = Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3, 0xff, 0xe0, 9, 9]);
    const mixed = Buffer.concat([
      frames[0]!.data,
      frames[1]!.data,
      junk,
      ...frames.slice(2, 10).map((f) => f.data),
    ]);
    const out = all(new FrameParser(), [mixed]);
    expect(out.map((f) => f.data.toString('hex'))).toEqual(
      frames.slice(0, 10).map((f) => f.data.toString('hex')),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        for (const f of all(new FrameParser(), [Buffer.from(bytes)])) {
          expect(parseFrameHeader(f.data)?.length).toBe(f.data.length);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('has a valid silent frame for filling gaps', () => {
    const frame = silentFrame();
    expect(parseFrameHeader(frame.data)?.length).toBe(frame.data.length);
  });
});
