import { afterEach, describe, expect, it } from 'vitest';
import { releaseAudioFocus, takeAudioFocus } from './audio-focus';

const log: string[] = [];
const holder = (name: string, resumes = false) => ({
  pause: () => log.push(`${name} paused`),
  ...(resumes ? { resume: () => log.push(`${name} resumed`) } : {}),
});

afterEach(() => {
  releaseAudioFocus('live');
  releaseAudioFocus('sermon');
  log.length = 0;
});

describe('audio focus', () => {
  it('pauses the live stream while a sermon plays, and brings it back when the sermon stops', () => {
    takeAudioFocus('live', holder('live', true));
    takeAudioFocus('sermon', holder('sermon'));
    expect(log).toEqual(['live paused']);
    releaseAudioFocus('sermon');
    expect(log).toEqual(['live paused', 'live resumed']);
  });

  it('pauses the sermon when the live stream is started again, and does not restart the sermon after', () => {
    takeAudioFocus('sermon', holder('sermon'));
    takeAudioFocus('live', holder('live', true));
    releaseAudioFocus('live');
    expect(log).toEqual(['sermon paused']);
  });

  it('does not resume the live stream when the listener stopped it while the sermon played', () => {
    takeAudioFocus('live', holder('live', true));
    takeAudioFocus('sermon', holder('sermon'));
    releaseAudioFocus('live');
    releaseAudioFocus('sermon');
    expect(log).toEqual(['live paused']);
  });

  it('pauses nothing when the same source plays again', () => {
    takeAudioFocus('live', holder('live', true));
    takeAudioFocus('live', holder('live', true));
    expect(log).toEqual([]);
  });
});
