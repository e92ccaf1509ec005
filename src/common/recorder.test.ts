import { describe, expect, it } from 'vitest';
import {
  CLIP_LENGTHS,
  clipDescriptionOrDefault,
  clipFileName,
  clipTitleOrDefault,
  DEFAULT_CLIP_DESCRIPTION,
  DEFAULT_CLIP_LENGTH,
  defaultClipTitle,
  pickRecorderMimeType,
  RECORDER_BITS_PER_SECOND,
  RECORDER_MIME_PREFERENCE,
  RECORDER_TIMESLICE_MS,
  recordingExtension,
} from './recorder.js';
import { createClipBodySchema } from './clips.js';

describe('recorder constants (SPEC.md section 9)', () => {
  it('offers 15/30/60/120 s with 30 by default, 1000 ms slices at 128000 bps', () => {
    expect(CLIP_LENGTHS).toEqual([15, 30, 60, 120]);
    expect(DEFAULT_CLIP_LENGTH).toBe(30);
    expect(RECORDER_TIMESLICE_MS).toBe(1000);
    expect(RECORDER_BITS_PER_SECOND).toBe(128000);
    expect(RECORDER_MIME_PREFERENCE).toEqual(['audio/mp4', 'audio/aac', 'audio/webm', 'audio/wav']);
  });
  it('picks the first supported MIME type in preference order', () => {
    expect(pickRecorderMimeType((t) => t === 'audio/webm' || t === 'audio/wav')).toBe('audio/webm');
    expect(pickRecorderMimeType(() => true)).toBe('audio/mp4');
    expect(pickRecorderMimeType(() => false)).toBeUndefined();
  });
});

describe('download naming', () => {
  it.each([
    ['Amazing Grace - Radio Live', 'amazing_grace___radio_live.webm'],
    ['ÉTÉ 2025!', '_t__2025_.webm'],
    ['', '.webm'],
  ])('%s -> %s', (title, name) => expect(clipFileName(title)).toBe(name));
  it('takes another extension for server clips', () => expect(clipFileName('A b', '.mp3')).toBe('a_b.mp3'));
  it.each([
    ['audio/mp4', '.m4a'],
    ['audio/mp4;codecs=mp4a.40.2', '.m4a'],
    ['audio/aac', '.aac'],
    ['audio/webm;codecs=opus', '.webm'],
    ['Audio/WebM', '.webm'],
    ['audio/wav', '.wav'],
    ['audio/ogg; codecs=opus', '.ogg'],
    ['', '.webm'],
  ])('a recording of %s downloads as %s', (type, extension) =>
    expect(recordingExtension(type)).toBe(extension),
  );
});

describe('default clip titles', () => {
  it("is '{track} - {station} Live' when a track is known", () => {
    expect(defaultClipTitle('Morning Hymns', 'Grace Radio')).toBe('Morning Hymns - Grace Radio Live');
  });
  it("is a generic 'Live Moment' title otherwise", () => {
    expect(defaultClipTitle(undefined, 'Grace Radio')).toBe('Live Moment - Grace Radio Live');
    expect(defaultClipTitle('  ', 'Grace Radio')).toBe('Live Moment - Grace Radio Live');
  });
  it('keeps a given title and falls back when blank', () => {
    expect(clipTitleOrDefault(' Mine ', 'T', 'S')).toBe('Mine');
    expect(clipTitleOrDefault('  ', 'T', 'S')).toBe('T - S Live');
    expect(clipDescriptionOrDefault('')).toBe(DEFAULT_CLIP_DESCRIPTION);
    expect(clipDescriptionOrDefault('x')).toBe('x');
  });
});

describe('server clip body', () => {
  it.each([
    [{ seconds: 10 }, true],
    [{ seconds: 120, streamClock: 55.5, title: 'x' }, true],
    [{ seconds: 9 }, false],
    [{ seconds: 121 }, false],
    [{ seconds: 10.5 }, false],
    [{ seconds: '10' }, false],
    [{}, false],
    [{ seconds: 10, streamClock: -1 }, false],
    [{ range: { from: 12.5, to: 14 } }, true],
    [{ range: { from: 0, to: 120 }, title: 'x' }, true],
    [{ range: { from: 0, to: 120.1 } }, false],
    [{ range: { from: 14, to: 12.5 } }, false],
    [{ range: { from: 10, to: 10.9 } }, false],
    [{ range: { from: 1, to: 5 }, seconds: 10 }, false],
    [{ range: { from: 1, to: 5 }, streamClock: 5 }, false],
  ])('%j valid: %s', (body, ok) => expect(createClipBodySchema.safeParse(body).success).toBe(ok));
});
