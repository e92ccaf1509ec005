import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer } from './audio-player';
import type { EngineCallbacks, EngineFactory } from './stream-engine';

/** A stand-in for the stream library: records what the player asks and lets the test play the network's part. */
function fakeEngine() {
  const calls: string[] = [];
  /** The seconds each play asked the engine to buffer before starting. */
  const buffers: number[] = [];
  let callbacks!: EngineCallbacks;
  const methods: string[] = [];
  const factory: EngineFactory = (audio, cb, method) => {
    callbacks = cb;
    methods.push(method);
    return {
      audio,
      play: async (url, bufferSeconds) => {
        calls.push(url);
        buffers.push(bufferSeconds);
      },
      stop: async () => void calls.push('stop'),
    };
  };
  return { factory, calls, buffers, methods, callbacks: () => callbacks };
}

function setup(streamUrl: string | null = '/stream') {
  const engine = fakeEngine();
  const audio = document.createElement('audio');
  const warmUps: { url: string; signal: AbortSignal }[] = [];
  const win = new EventTarget() as unknown as Window;
  const player = new AudioPlayer({
    engine: engine.factory,
    audio,
    method: 'mediasource',
    window: win,
    warmUp: async (url, signal) => void warmUps.push({ url, signal }),
  });
  if (streamUrl) player.setStreamUrl(streamUrl);
  return { player, audio, engine, warmUps, win };
}

describe('AudioPlayer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    if (vi.isMockFunction(console.warn)) vi.mocked(console.warn).mockRestore();
  });

  it('starts paused at volume 0.75', () => {
    const { player, audio } = setup();
    expect(player.getState()).toMatchObject({
      playing: false,
      buffering: false,
      volume: 0.75,
      wanted: false,
    });
    expect(audio.volume).toBe(0.75);
  });

  it('play raises the volume to at least 0.8, unmutes and asks for the adaptive url', () => {
    const { player, audio, engine } = setup();
    audio.muted = true;
    player.play();
    expect(audio.volume).toBe(0.8);
    expect(audio.muted).toBe(false);
    expect(engine.calls[0]).toMatch(/^\/stream\?quality=128&t=\d+$/);
  });

  it("play pressed before the stream's address is known starts once it is, once", () => {
    const { player, engine } = setup(null);
    player.play();
    expect(engine.calls).toEqual([]);
    expect(player.getState().wanted).toBe(true);
    player.setStreamUrl('/stream');
    expect(engine.calls).toHaveLength(1);
    expect(engine.calls[0]).toMatch(/^\/stream\?quality=128&t=\d+$/);
    player.setStreamUrl('/stream');
    expect(engine.calls).toHaveLength(1);
  });

  it('clamps the volume to 0..1', () => {
    const { player, audio } = setup();
    player.setVolume(3);
    expect(audio.volume).toBe(1);
    player.setVolume(-2);
    expect(player.getState().volume).toBe(0);
  });

  it('sets buffering on waiting and clears it on playing', () => {
    const { player, audio } = setup();
    player.play();
    audio.dispatchEvent(new Event('waiting'));
    expect(player.getState()).toMatchObject({ buffering: true, playing: false });
    audio.dispatchEvent(new Event('playing'));
    expect(player.getState()).toMatchObject({ buffering: false, playing: true });
  });

  it('reconnects with backoff doubling from the quality delay, then gives up with the spec message', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { player, audio, engine } = setup();
    player.play();
    audio.dispatchEvent(new Event('playing'));
    const starts = () => engine.calls.filter((c) => c.startsWith('/stream')).length;
    engine.callbacks().onStop();
    expect(player.getState().playing).toBe(false);
    for (const delay of [500, 1000, 2000, 4000, 8000]) {
      const before = starts();
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(starts()).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(starts()).toBe(before + 1);
      engine.callbacks().onStop(); // the attempt fails too
    }
    expect(warn).toHaveBeenCalledWith('Max reconnection attempts reached');
    const before = starts();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts()).toBe(before);
    expect(player.hasGivenUp).toBe(true);
  });

  it('uses the poor delays (3000, 6000) on a poor network and asks for 64 kbps', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { player, engine, audio } = setup();
    player.setNetworkQuality({ bandwidth: 1, latency: 500, quality: 'poor' });
    expect(audio.preload).toBe('none');
    player.play();
    expect(engine.calls[0]).toContain('quality=64');
    engine.callbacks().onStop();
    await vi.advanceTimersByTimeAsync(2999);
    expect(engine.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.calls).toHaveLength(2);
    engine.callbacks().onStop();
    await vi.advanceTimersByTimeAsync(6000);
    expect(engine.calls).toHaveLength(3);
  });

  it.each([
    ['excellent', 10, 2, 128],
    ['good', 5, 4, 128],
    ['fair', 2, 8, 96],
    ['poor', 1, 15, 64],
  ] as const)(
    "buffers SPEC.md's seconds for a %s network (%i) before playing: %i s at %i kbps",
    async (quality, bandwidth, seconds, kbps) => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { player, engine } = setup();
      player.setNetworkQuality({ bandwidth, latency: 0, quality });
      player.play();
      expect(engine.calls[0]).toContain(`quality=${kbps}&`);
      expect(engine.buffers).toEqual([seconds]);
      // A reconnect asks for the same buffer; a quality measured meanwhile applies to it.
      engine.callbacks().onStop();
      player.setNetworkQuality({ bandwidth: 1, latency: 500, quality: 'poor' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(engine.buffers[1]).toBe(15);
    },
  );

  it("while the engine holds the start for the buffer it is buffering, not playing, even once the element says 'playing'", () => {
    const { player, audio, engine } = setup();
    player.play();
    engine.callbacks().onHold(true);
    expect(player.getState()).toMatchObject({ buffering: true, playing: false });
    Object.defineProperty(audio, 'paused', { value: false, configurable: true });
    audio.dispatchEvent(new Event('playing'));
    expect(player.getState()).toMatchObject({ buffering: true, playing: false });
    engine.callbacks().onHold(false);
    expect(player.getState()).toMatchObject({ buffering: false, playing: true });
  });

  it('a stop while the start is held leaves the next start free of it', async () => {
    const { player, audio, engine } = setup();
    player.play();
    engine.callbacks().onHold(true);
    await player.stop();
    player.play();
    audio.dispatchEvent(new Event('playing'));
    expect(player.getState()).toMatchObject({ buffering: false, playing: true });
  });

  it('a successful reconnect resets the backoff', async () => {
    const { player, audio, engine } = setup();
    player.play();
    engine.callbacks().onStop();
    await vi.advanceTimersByTimeAsync(500);
    audio.dispatchEvent(new Event('playing'));
    expect(player.reconnectAttempts).toBe(0);
  });

  it('does not reconnect after the listener pressed stop', async () => {
    const { player, engine } = setup();
    player.play();
    await player.stop();
    engine.callbacks().onStop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(engine.calls.filter((c) => c.startsWith('/stream'))).toHaveLength(1);
  });

  it('coming back online resumes a listener who never pressed stop, even after giving up', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { player, engine, win } = setup();
    player.play();
    for (let i = 0; i < 6; i++) {
      engine.callbacks().onStop();
      await vi.advanceTimersByTimeAsync(10_000);
    }
    expect(player.hasGivenUp).toBe(true);
    const before = engine.calls.length;
    win.dispatchEvent(new Event('online'));
    expect(engine.calls.length).toBe(before + 1);
  });

  it('resumes a listener whose retries ran out once the station answers again, but not one who pressed stop', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { player, engine } = setup();
    player.play();
    for (let i = 0; i < 6; i++) {
      engine.callbacks().onStop();
      await vi.advanceTimersByTimeAsync(10_000);
    }
    const starts = () => engine.calls.filter((c) => c.startsWith('/stream')).length;
    const before = starts();
    player.resumeIfWanted();
    expect(starts()).toBe(before + 1);
    await player.stop();
    player.resumeIfWanted();
    expect(starts()).toBe(before + 1);
  });

  it('shows buffering for 2 s when under 1 s is buffered ahead at the 5 s check', async () => {
    const { player, audio } = setup();
    Object.defineProperty(audio, 'buffered', { value: { length: 1, start: () => 0, end: () => 10.5 } });
    Object.defineProperty(audio, 'currentTime', { value: 10, writable: true });
    player.play();
    audio.dispatchEvent(new Event('playing'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(player.getState().buffering).toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(player.getState().buffering).toBe(false);
  });

  it('preloads with a warm-up request of the stream address, not an audio element, once per 30 s', async () => {
    const { player, warmUps, engine } = setup();
    player.prepare();
    player.prepare();
    expect(warmUps).toHaveLength(1);
    expect(warmUps[0]!.url).toMatch(/^\/stream\?quality=128&t=\d+$/);
    expect(player.preloading).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(player.preloading).toBe(false);
    player.prepare();
    expect(warmUps).toHaveLength(2);
    // Play opens the one stream connection, and does not cut a warm-up still under way (its connection is
    // the one play's request picks up).
    player.play();
    expect(engine.calls.filter((c) => c.startsWith('/stream'))).toHaveLength(1);
    expect(warmUps[1]!.signal.aborted).toBe(false);
    expect(player.preloading).toBe(false);
    player.prepare();
    expect(warmUps).toHaveLength(2);
  });

  it('is stalled when the audio it plays stops or runs dry, not while it starts, and not after stop', async () => {
    const { player, audio, engine } = setup();
    player.play();
    audio.dispatchEvent(new Event('waiting'));
    expect(player.getState().stalled).toBe(false);
    audio.dispatchEvent(new Event('playing'));
    audio.dispatchEvent(new Event('waiting'));
    expect(player.getState()).toMatchObject({ stalled: true, buffering: true });
    audio.dispatchEvent(new Event('playing'));
    expect(player.getState().stalled).toBe(false);
    engine.callbacks().onStop();
    expect(player.getState()).toMatchObject({ stalled: true, playing: false, wanted: true });
    await vi.advanceTimersByTimeAsync(500);
    audio.dispatchEvent(new Event('playing'));
    expect(player.getState().stalled).toBe(false);
    // The connection ends: stalled at once, while the audio already received still plays out.
    engine.callbacks().onStreamEnd();
    expect(player.getState()).toMatchObject({ stalled: true, playing: true });
    engine.callbacks().onStop();
    await player.stop();
    expect(player.getState().stalled).toBe(false);
  });

  it('attempts autoplay once', () => {
    const { player, engine } = setup();
    player.tryAutoplay();
    void player.stop();
    player.tryAutoplay();
    expect(engine.calls.filter((c) => c.startsWith('/stream'))).toHaveLength(1);
  });

  it('takes the heard title and stream clock from synchronised metadata', () => {
    const { player, audio, engine } = setup();
    player.play();
    audio.dispatchEvent(new Event('playing'));
    let t = 3;
    Object.defineProperty(audio, 'currentTime', { get: () => t });
    engine.callbacks().onMetadata({ StreamTitle: 'Choir - Hymn', StreamClock: '120.50' }, 3);
    expect(player.getState().heardTitle).toBe('Choir - Hymn');
    t = 5.25;
    expect(player.clock.now()).toBeCloseTo(122.75);
  });

  it('falls back to the plain media element when MSE cannot play the stream', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { player, engine } = setup();
    engine.callbacks().onWarn('Your browser does not support this audio codec audio/mpeg');
    expect(player.getState().method).toBe('html5');
    expect(engine.methods).toEqual(['mediasource', 'html5']);
  });
});
