import { describe, expect, it } from 'vitest';
import { transcriptMediaId, transcriptVttPath } from './speech';

describe('transcript addresses', () => {
  it('reads back the library item a transcript address names', () => {
    expect(transcriptMediaId(transcriptVttPath('a1b2-c3_d4'))).toBe('a1b2-c3_d4');
  });

  it.each([
    '/api/speech/transcripts//transcript.vtt',
    '/api/speech/transcripts/a/b/transcript.vtt',
    '/api/speech/transcripts/not an id/transcript.vtt',
    '/api/speech/transcripts/m1/transcript.srt',
    'https://example.org/api/speech/transcripts/m1/transcript.vtt',
    '/media/m1',
  ])('names none in %s', (url) => {
    expect(transcriptMediaId(url)).toBeNull();
  });
});
