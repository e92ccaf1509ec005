import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer } from './audio-player';
import type { EngineCallbacks, EngineFactory } from './stream-engine';
import { useConnectionStatus } from './use-connection-status';

function setup() {
  let callbacks!: EngineCallbacks;
  const engine: EngineFactory = (audio, cb) => {
    callbacks = cb;
    return { audio, play: async () => {}, stop: async () => {} };
  };
  const audio = document.createElement('audio');
  const player = new AudioPlayer({ engine, audio, method: 'mediasource', warmUp: async () => {} });
  player.setStreamUrl('/stream');
  // The station's answer to the probe: its round trip in ms, or null when it fails.
  // `hold`: an answer still on its way (a probe out on a line that is going).
  const line = { ms: 40 as number | null, probes: 0, hold: null as Promise<number | null> | null };
  const probe = async () => {
    line.probes++;
    return line.hold ?? line.ms;
  };
  const hook = renderHook(() => useConnectionStatus(player, probe));
  const fire = (type: string) => act(() => void audio.dispatchEvent(new Event(type)));
  return { player, line, status: () => hook.result.current, fire, callbacks: () => callbacks };
}

describe('useConnectionStatus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('probes at once and every 30 s: under 200 ms High Speed, slower or failed Slow Connection', async () => {
    const { line, status } = setup();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(status()).toBe('fast');
    line.ms = null;
    await act(() => vi.advanceTimersByTimeAsync(29_999));
    expect(status()).toBe('fast');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(status()).toBe('slow');
    line.ms = 250;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(status()).toBe('slow');
    line.ms = 120;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(status()).toBe('fast');
  });

  it('is Slow Connection the moment the stream stops under the listener, and High Speed once it plays again', async () => {
    const { player, line, status, fire, callbacks } = setup();
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => player.play());
    fire('waiting'); // starting up is not a stall
    fire('playing');
    expect(status()).toBe('fast');

    // The station goes away: no timer has to run for the indicator to say so, and it says so when the
    // connection drops, not seconds later when the audio already received has played out.
    act(() => callbacks().onStreamEnd());
    expect(status()).toBe('slow');
    act(() => callbacks().onStop());
    expect(status()).toBe('slow');
    // The station's address still answers quickly, but the audio is not back: still slow.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(status()).toBe('slow');

    const before = line.probes;
    fire('playing');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(line.probes).toBe(before + 1);
    expect(status()).toBe('fast');
  });

  it('is Slow Connection while the playing stream runs dry, and comes back through a probe', async () => {
    const { player, line, status, fire } = setup();
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => player.play());
    fire('playing');
    fire('waiting');
    expect(status()).toBe('slow');
    // Back, but the line is slow now: the probe on recovery says so.
    line.ms = 400;
    fire('playing');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(status()).toBe('slow');
  });

  it('a probe out when the browser goes offline does not answer for the line; back online probes again', async () => {
    const { line, status } = setup();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(status()).toBe('fast');
    let fail!: () => void;
    line.hold = new Promise((resolve) => (fail = () => resolve(null)));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    const sent = line.probes;
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    act(() => void window.dispatchEvent(new Event('offline')));
    // It fails because the browser is offline: not the line's speed.
    await act(async () => fail());
    expect(status()).toBe('fast');
    line.hold = null;
    line.ms = 350;
    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    act(() => void window.dispatchEvent(new Event('online')));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(line.probes).toBe(sent + 1);
    expect(status()).toBe('slow');
  });

  it('after the listener presses stop, the probe alone decides again', async () => {
    const { player, status, fire, callbacks } = setup();
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => player.play());
    fire('playing');
    act(() => callbacks().onStop());
    expect(status()).toBe('slow');
    await act(() => player.stop());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(status()).toBe('fast');
  });
});
