import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameHistory, type TimedFrame } from './frame-history.js';

const FRAME = 1152 / 44100;

/** `count` frames from stream-clock `from`, each of `bytes` bytes holding its own number. */
function frames(count: number, bytes = 417, from = 0): TimedFrame[] {
  return Array.from({ length: count }, (_, i) => {
    const data = Buffer.alloc(bytes);
    data.writeUInt32BE(i, 0);
    return { data, start: from + i * FRAME, duration: FRAME };
  });
}

const numbers = (list: TimedFrame[]) => list.map((f) => f.data.readUInt32BE(0));

describe('FrameHistory', () => {
  it('answers across its pages exactly as the frames were pushed, and keeps at least its seconds', () => {
    const history = new FrameHistory(30);
    const pushed = frames(3000); // 78 s of 417-byte frames: 19 pages of 64 KB
    for (const frame of pushed) history.push(frame);
    const span = history.span()!;
    const newest = pushed[pushed.length - 1]!;
    expect(span.to).toBeCloseTo(newest.start + FRAME, 9);
    expect(span.to - span.from).toBeGreaterThanOrEqual(30);
    expect(span.to - span.from).toBeLessThan(30 + 2 * FRAME);

    // 10 s from within the third page of those held, to the one before last.
    const [from, to] = [span.from + 9, span.from + 19];
    const clip = history.between(from, to);
    expect(clip[0]!.start).toBeLessThanOrEqual(from);
    expect(clip[0]!.start + FRAME).toBeGreaterThan(from);
    expect(clip[clip.length - 1]!.start).toBeLessThan(to);
    expect(numbers(clip)).toEqual(numbers(pushed.filter((f) => f.start + FRAME > from && f.start < to)));
    for (const f of clip) expect(f.data.equals(pushed[f.data.readUInt32BE(0)]!.data)).toBe(true);
    expect(history.between(0, 10)).toEqual([]);
    expect(history.between(50, 40)).toEqual([]);
  });

  it('holds copies: frames it hands out stay as they were after the pushed buffers change and pages go', () => {
    const history = new FrameHistory(10);
    const pushed = frames(400);
    for (const frame of pushed.slice(0, 200)) history.push(frame);
    const early = history.between(0, 1);
    for (const frame of pushed) frame.data.fill(0xee);
    for (const frame of frames(2000, 417, 200 * FRAME)) history.push(frame); // the early pages are dropped
    expect(numbers(early)).toEqual(numbers(frames(Math.ceil(1 / FRAME))));
    expect(early[0]!.data.subarray(4).every((b) => b === 0)).toBe(true);
  });

  it('takes frames smaller than the first of their page', () => {
    const history = new FrameHistory(3600);
    const pushed = [...frames(3, 1000), ...frames(500, 26, 3 * FRAME)];
    for (const frame of pushed) history.push(frame);
    expect(history.between(0, 3600).map((f) => f.data.length)).toEqual(pushed.map((f) => f.data.length));
  });

  it('takes frames of any size, a frame larger than a page included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 40 }), (sizes) => {
        const history = new FrameHistory(3600);
        const pushed = sizes.map((bytes, i) => {
          const data = Buffer.alloc(Math.max(4, bytes), i % 251);
          data.writeUInt32BE(i, 0);
          return { data, start: i * FRAME, duration: FRAME };
        });
        for (const frame of pushed) history.push(frame);
        const all = history.between(0, sizes.length);
        expect(all.map((f) => f.data.length)).toEqual(pushed.map((f) => f.data.length));
        all.forEach((f, i) => expect(f.data.equals(pushed[i]!.data)).toBe(true));
      }),
      { numRuns: 30 },
    );
  });
});
