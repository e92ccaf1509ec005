import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer } from './audio-player';
import type { EngineCallbacks, EngineFactory } from './stream-engine';
import { useStreamClock } from './use-stream-clock';

describe('useStreamClock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is null while nothing plays and follows the heard second while playing', async () => {
    let callbacks!: EngineCallbacks;
    const engine: EngineFactory = (audio, cb) => {
      callbacks = cb;
      return { audio, play: async () => {}, stop: async () => {} };
    };
    const audio = document.createElement('audio');
    let time = 0;
    Object.defineProperty(audio, 'currentTime', { get: () => time });
    const player = new AudioPlayer({ engine, audio, method: 'mediasource' });
    const { result } = renderHook(() => useStreamClock(250, player));
    expect(result.current).toBeNull();
    act(() => {
      player.setStreamUrl('/stream');
      player.play();
      audio.dispatchEvent(new Event('playing'));
      callbacks.onMetadata({ StreamClock: '500.00' }, 0);
    });
    expect(result.current).toBe(500);
    time = 2;
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(result.current).toBe(502);
    await act(() => player.stop());
    expect(result.current).toBeNull();
  });
});
