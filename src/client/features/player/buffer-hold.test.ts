import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdUntilBuffered, secondsBufferedAhead } from './buffer-hold';

/** An audio element whose buffered range the test grows, as arriving audio would. */
function audioWithBuffer() {
  const audio = document.createElement('audio');
  let end = 0;
  Object.defineProperty(audio, 'buffered', {
    get: () => ({ length: end > 0 ? 1 : 0, start: () => 0, end: () => end }),
  });
  return { audio, arrive: (seconds: number) => (end = seconds) };
}

describe('holding the start until the buffer is in', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the play head still (rate 0, also after a new source) until the seconds asked for have arrived', async () => {
    const { audio, arrive } = audioWithBuffer();
    const released = vi.fn();
    holdUntilBuffered(audio, 15, released);
    expect(audio.playbackRate).toBe(0);
    // A new source: the browser puts the rate back to its default, and says so with loadstart.
    audio.playbackRate = 1;
    audio.dispatchEvent(new Event('loadstart'));
    expect(audio.playbackRate).toBe(0);
    arrive(4);
    await vi.advanceTimersByTimeAsync(1000);
    arrive(14.9);
    await vi.advanceTimersByTimeAsync(1000);
    expect(released).not.toHaveBeenCalled();
    expect(audio.playbackRate).toBe(0);
    arrive(15);
    await vi.advanceTimersByTimeAsync(100);
    expect(released).toHaveBeenCalledTimes(1);
    expect(audio.playbackRate).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(released).toHaveBeenCalledTimes(1);
  });

  it('lets go as soon as the element starts when the connect burst already covers the buffer', () => {
    const { audio, arrive } = audioWithBuffer();
    const released = vi.fn();
    holdUntilBuffered(audio, 2, released);
    arrive(4);
    audio.dispatchEvent(new Event('playing'));
    expect(released).toHaveBeenCalledTimes(1);
    expect(audio.playbackRate).toBe(1);
  });

  it('lets go at once when stopped, without saying the buffer is in', async () => {
    const { audio } = audioWithBuffer();
    const released = vi.fn();
    const stop = holdUntilBuffered(audio, 2, released);
    stop();
    expect(audio.playbackRate).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(released).not.toHaveBeenCalled();
  });

  it('starts at once where the browser will not hold the rate at 0', () => {
    const { audio } = audioWithBuffer();
    Object.defineProperty(audio, 'playbackRate', {
      get: () => 1,
      set: (rate: number) => {
        if (rate === 0) throw new DOMException('not in the supported playback range', 'NotSupportedError');
      },
    });
    const released = vi.fn();
    holdUntilBuffered(audio, 8, released);
    expect(released).toHaveBeenCalledTimes(1);
  });

  it('measures what is buffered past the play head', () => {
    const { audio, arrive } = audioWithBuffer();
    arrive(10.5);
    Object.defineProperty(audio, 'currentTime', { value: 10 });
    expect(secondsBufferedAhead(audio)).toBe(0.5);
  });
});
