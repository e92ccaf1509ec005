import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordedRange, StreamRecorder, testRecording } from './stream-recorder';

class FakeMediaRecorder {
  static supported = new Set(['audio/webm', 'audio/wav']);
  static last: FakeMediaRecorder | undefined;
  static isTypeSupported(type: string) {
    return FakeMediaRecorder.supported.has(type);
  }
  state: 'inactive' | 'recording' = 'inactive';
  timeslice: number | undefined;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  mimeType: string;
  constructor(
    public stream: unknown,
    public options: { mimeType?: string; audioBitsPerSecond?: number },
  ) {
    this.mimeType = options.mimeType ?? '';
    FakeMediaRecorder.last = this;
  }
  start(timeslice: number) {
    this.state = 'recording';
    this.timeslice = timeslice;
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['abc'], { type: this.mimeType }) });
    this.onstop?.();
  }
}

function audioWithCapture() {
  const stopped: string[] = [];
  const audio = document.createElement('audio') as HTMLAudioElement & { captureStream: () => MediaStream };
  audio.captureStream = () =>
    ({ getTracks: () => [{ stop: () => stopped.push('track') }] }) as unknown as MediaStream;
  return { audio, stopped };
}

function make() {
  const revoked: string[] = [];
  let n = 0;
  const completed: string[] = [];
  const recorder = new StreamRecorder({
    MediaRecorder: FakeMediaRecorder as unknown as typeof MediaRecorder,
    createObjectURL: () => `blob:${++n}`,
    revokeObjectURL: (url) => revoked.push(url),
    onComplete: (r) => completed.push(r.title),
  });
  return { recorder, revoked, completed };
}

const options = { title: 'Psalm', description: 'A moment', maxSeconds: 15 };

describe('StreamRecorder', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("taps the player's audio with the first supported type, 1000 ms slices and 128000 bps", () => {
    const { recorder } = make();
    recorder.start(audioWithCapture().audio, options);
    const rec = FakeMediaRecorder.last!;
    expect(rec.options).toEqual({ mimeType: 'audio/webm', audioBitsPerSecond: 128000 });
    expect(rec.timeslice).toBe(1000);
    expect(recorder.getState()).toMatchObject({ status: 'recording', elapsed: 0, maxSeconds: 15 });
  });

  it('ticks every second and stops by itself at the chosen length, clip at the top of the list', async () => {
    const { recorder, completed } = make();
    const { audio, stopped } = audioWithCapture();
    recorder.start(audio, { ...options, title: 'First' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(recorder.getState().elapsed).toBe(1);
    await vi.advanceTimersByTimeAsync(14_000);
    expect(recorder.getState().status).toBe('idle');
    expect(stopped).toEqual(['track']);
    recorder.start(audio, { ...options, title: 'Second' });
    recorder.stop();
    const { recordings } = recorder.getState();
    expect(recordings.map((r) => r.title)).toEqual(['Second', 'First']);
    expect(recordings[1]).toMatchObject({ url: 'blob:1', description: 'A moment', duration: 15 });
    expect(recordings[1]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(completed).toEqual(['First', 'Second']);
  });

  it('keeps the stream-clock seconds heard at the start and at Stop with the recording', async () => {
    const { recorder } = make();
    let heard: number | null = 100.4;
    recorder.start(audioWithCapture().audio, { ...options, streamClock: () => heard });
    heard = 103.1;
    await vi.advanceTimersByTimeAsync(2700);
    recorder.stop();
    expect(recorder.getState().recordings[0]!.range).toEqual({ from: 100.4, to: 103.1 });
    // Stopped at its maximum: the second heard then is the end.
    recorder.start(audioWithCapture().audio, { ...options, maxSeconds: 15, streamClock: () => heard });
    heard = 118.1;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(recorder.getState().recordings[0]!.range).toEqual({ from: 103.1, to: 118.1 });
  });

  it('has no range when the page never knew which second it played', () => {
    const { recorder } = make();
    recorder.start(audioWithCapture().audio, options);
    recorder.stop();
    expect(recorder.getState().recordings[0]!.range).toBeNull();
  });

  it('deleting a recording frees its object url', () => {
    const { recorder, revoked } = make();
    recorder.start(audioWithCapture().audio, options);
    recorder.stop();
    const [rec] = recorder.getState().recordings;
    recorder.remove(rec!.id);
    expect(revoked).toEqual([rec!.url]);
    expect(recorder.getState().recordings).toEqual([]);
  });

  it('refuses with the SPEC messages', () => {
    const { recorder } = make();
    expect(() => recorder.start(null, options)).toThrow('No audio element provided for recording');
    const { audio } = audioWithCapture();
    recorder.start(audio, options);
    expect(() => recorder.start(audio, options)).toThrow('Recording already in progress');
    recorder.stop();
    const none = new StreamRecorder({ MediaRecorder: undefined });
    vi.stubGlobal('MediaRecorder', undefined);
    try {
      expect(() => none.start(audio, options)).toThrow('Audio recording not supported on this device');
    } finally {
      vi.unstubAllGlobals();
    }
    const broken = document.createElement('audio') as HTMLAudioElement & { captureStream: () => MediaStream };
    broken.captureStream = () => {
      throw new Error('capture denied');
    };
    expect(() => make().recorder.start(broken, options)).toThrow(
      'Failed to setup audio recording: capture denied. Please allow microphone access and try again.',
    );
  });
});

describe('the recording debug test', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('records 3 s and reports the format', async () => {
    const result = testRecording(
      audioWithCapture().audio,
      FakeMediaRecorder as unknown as typeof MediaRecorder,
    );
    await vi.advanceTimersByTimeAsync(2999);
    expect(FakeMediaRecorder.last!.state).toBe('recording');
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ ok: true, mimeType: 'audio/webm', bytes: 3 });
  });

  it("reports 'No supported audio format found for iOS' and 'iOS test failed'", async () => {
    const none = { isTypeSupported: () => false } as unknown as typeof MediaRecorder;
    expect(await testRecording(audioWithCapture().audio, none)).toEqual({
      ok: false,
      message: 'No supported audio format found for iOS',
    });
    const broken = document.createElement('audio') as HTMLAudioElement & { captureStream: () => MediaStream };
    broken.captureStream = () => {
      throw new Error('no');
    };
    expect(await testRecording(broken, FakeMediaRecorder as unknown as typeof MediaRecorder)).toEqual({
      ok: false,
      message: 'iOS test failed',
    });
  });
});

describe("a recording's place on the stream clock", () => {
  it.each([
    ['both ends heard', 40, 45.5, 5.5, { from: 40, to: 45.5 }],
    ['the start not yet heard', null, 50, 5, { from: 45, to: 50 }],
    ['playback stopped before the recorder', 40, null, 5, { from: 40, to: 45 }],
    ['the clock moved back (reconnected)', 40, 30, 5, { from: 40, to: 45 }],
    ['a maximum-length recording running over', 0, 121, 121, { from: 1, to: 121 }],
    ['the very start of the broadcast', null, 3, 5, { from: 0, to: 3 }],
    ['nothing heard', null, null, 5, null],
  ])('%s', (_name, from, to, seconds, range) => {
    expect(recordedRange(from, to, seconds)).toEqual(range);
  });
});
