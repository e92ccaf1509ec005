import { CLIP_RANGE_SECONDS } from '../../../common/clip-limits';
import type { ClipRange } from '../../../common/clips';
import {
  DEBUG_TEST_RECORDING_MS,
  pickRecorderMimeType,
  RECORDER_BITS_PER_SECOND,
  RECORDER_TEXT,
  RECORDER_TICK_MS,
  RECORDER_TIMESLICE_MS,
} from '../../../common/recorder';

/** SPEC.md section 3: a local recording entry (browser only, session-only list). */
export interface Recording {
  id: string;
  blob: Blob;
  url: string;
  /** Seconds. */
  duration: number;
  title: string;
  description: string;
  /** ISO time the recording finished. */
  timestamp: string;
  /**
   * The stream-clock seconds it holds (DESIGN.md section 5), so the station can cut the same moment to
   * share; null when the page did not know which second it was playing.
   */
  range: ClipRange | null;
}

/** Where the recording sits on the stream clock: the seconds heard when it started and stopped. */
export function recordedRange(from: number | null, to: number | null, seconds: number): ClipRange | null {
  // Either end may be unknown (the first metadata not yet heard, or playback stopped first): the
  // recording's own length places it from the other. An end before its start means the clock moved on
  // (the player reconnected), so the start and the length are trusted.
  if (from === null && to === null) return null;
  const end = from !== null && (to === null || to < from) ? from + seconds : to!;
  const start = from ?? end - seconds;
  // A recording stopped at its maximum may run a moment over the longest clip the station cuts.
  return { from: Math.max(0, start, end - CLIP_RANGE_SECONDS.max), to: end };
}

export interface RecorderState {
  status: 'idle' | 'recording';
  /** Whole seconds recorded so far. */
  elapsed: number;
  maxSeconds: number;
  recordings: Recording[];
}

export interface RecorderDeps {
  MediaRecorder?: typeof MediaRecorder;
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
  /** Called when recording fails after it started. */
  onError?: (error: unknown) => void;
  /** Called with each finished recording. */
  onComplete?: (recording: Recording) => void;
}

type CapturableAudio = HTMLAudioElement & {
  captureStream?: () => MediaStream;
  mozCaptureStream?: () => MediaStream;
};

/** Where the browser can record what the page plays: MediaRecorder and a way to tap the audio element. */
export function canRecordStream(win: typeof globalThis = globalThis): boolean {
  const proto = (win as { HTMLMediaElement?: { prototype: object } }).HTMLMediaElement?.prototype as
    CapturableAudio | undefined;
  const tap =
    Boolean(proto && ('captureStream' in proto || 'mozCaptureStream' in proto)) || 'AudioContext' in win;
  return typeof (win as { MediaRecorder?: unknown }).MediaRecorder === 'function' && tap;
}

/** Web Audio taps are made once per element (a second MediaElementSource throws) and kept live. */
const webAudioTaps = new WeakMap<HTMLMediaElement, MediaStreamAudioDestinationNode>();
const webAudioTapStreams = new WeakSet<MediaStream>();

/**
 * Taps the stream the listener hears, never the microphone: the element's own capture where the
 * browser has it; otherwise a MediaElementSource routed both to the speakers and to a recordable stream.
 */
export function tapAudio(audio: HTMLAudioElement): MediaStream {
  const el = audio as CapturableAudio;
  if (typeof el.captureStream === 'function') return el.captureStream();
  const existing = webAudioTaps.get(audio);
  if (existing) return existing.stream;
  const ctx = new AudioContext();
  const source = ctx.createMediaElementSource(audio);
  const destination = ctx.createMediaStreamDestination();
  source.connect(ctx.destination);
  source.connect(destination);
  webAudioTaps.set(audio, destination);
  webAudioTapStreams.add(destination.stream);
  return destination.stream;
}

/**
 * SPEC.md section 4's recorder as a plain class: idle -> recording (a timer ticking every second) ->
 * stopped on Stop or automatically at the chosen length -> idle, with the clip at the top of a
 * session-only list. React reads it through useSyncExternalStore.
 */
export class StreamRecorder {
  /** The state as the page was served (prerendered): React hydrates with it, then renders the live one. */
  readonly initialState: RecorderState = { status: 'idle', elapsed: 0, maxSeconds: 0, recordings: [] };
  private state: RecorderState = this.initialState;
  private recorder: MediaRecorder | undefined;
  private stream: MediaStream | undefined;
  private chunks: Blob[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private meta = { title: '', description: '' };
  private startedAt = 0;
  private streamClock: () => number | null = () => null;
  private heardAtStart: number | null = null;
  /** Read when Stop is pressed (or the maximum reached): the recorder hands its last data over later. */
  private stopped: { at: number; heard: number | null } | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly deps: Required<Omit<RecorderDeps, 'MediaRecorder' | 'onError' | 'onComplete'>> &
    RecorderDeps;

  constructor(deps: RecorderDeps = {}) {
    this.deps = {
      createObjectURL: (blob) => URL.createObjectURL(blob),
      revokeObjectURL: (url) => URL.revokeObjectURL(url),
      ...deps,
    };
  }

  getState = (): RecorderState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts recording what `audio` plays; throws with SPEC.md section 8's messages. */
  start(
    audio: HTMLAudioElement | null,
    options: {
      title: string;
      description: string;
      maxSeconds: number;
      /** The stream-clock second the listener is hearing, or null; read at the start and the stop. */
      streamClock?: () => number | null;
    },
  ): void {
    if (this.state.status === 'recording') throw new Error(RECORDER_TEXT.alreadyRecording);
    if (!audio) throw new Error(RECORDER_TEXT.noAudioElement);
    const Recorder =
      this.deps.MediaRecorder ?? (globalThis as { MediaRecorder?: typeof MediaRecorder }).MediaRecorder;
    if (!Recorder) throw new Error(RECORDER_TEXT.notSupportedOnDevice);
    let recorder: MediaRecorder;
    try {
      this.stream = tapAudio(audio);
      const mimeType = pickRecorderMimeType((type) => Recorder.isTypeSupported(type));
      recorder = new Recorder(this.stream, {
        ...(mimeType ? { mimeType } : {}),
        audioBitsPerSecond: RECORDER_BITS_PER_SECOND,
      });
    } catch (error) {
      throw new Error(RECORDER_TEXT.setupFailed(error instanceof Error ? error.message : String(error)), {
        cause: error,
      });
    }
    this.chunks = [];
    this.meta = { title: options.title, description: options.description };
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    recorder.onerror = (event) => {
      this.finish(false);
      this.deps.onError?.(event);
    };
    recorder.onstop = () => this.finish(true);
    this.recorder = recorder;
    recorder.start(RECORDER_TIMESLICE_MS);
    this.startedAt = Date.now();
    this.streamClock = options.streamClock ?? (() => null);
    this.heardAtStart = this.streamClock();
    this.stopped = null;
    this.update({ status: 'recording', elapsed: 0, maxSeconds: options.maxSeconds });
    this.ticker = setInterval(() => {
      const elapsed = this.state.elapsed + 1;
      this.update({ elapsed });
      if (elapsed >= this.state.maxSeconds) this.stop();
    }, RECORDER_TICK_MS);
  }

  /** Stops on the Stop button or at the maximum; the clip arrives when the recorder hands over its data. */
  stop(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    const recorder = this.recorder;
    if (!recorder || recorder.state === 'inactive') return;
    this.stopped ??= { at: Date.now(), heard: this.streamClock() };
    try {
      recorder.stop();
    } catch (error) {
      this.finish(false);
      throw new Error(RECORDER_TEXT.errorStopping, { cause: error });
    }
  }

  /** Deleting a recording frees its object url. */
  remove(id: string): void {
    const recording = this.state.recordings.find((r) => r.id === id);
    if (!recording) return;
    this.deps.revokeObjectURL(recording.url);
    this.update({ recordings: this.state.recordings.filter((r) => r.id !== id) });
  }

  dispose(): void {
    this.stop();
    for (const r of this.state.recordings) this.deps.revokeObjectURL(r.url);
    this.listeners.clear();
  }

  private finish(keep: boolean): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    const recorder = this.recorder;
    this.recorder = undefined;
    if (!recorder) return;
    // Captured tracks are copies of the element's output; ending them leaves playback alone.
    if (this.stream && !webAudioTapStreams.has(this.stream)) {
      for (const track of this.stream.getTracks()) track.stop();
    }
    this.stream = undefined;
    const chunks = this.chunks;
    this.chunks = [];
    if (!keep || chunks.length === 0) {
      this.update({ status: 'idle', elapsed: 0 });
      return;
    }
    const blob = new Blob(chunks, { type: recorder.mimeType || chunks[0]!.type || 'audio/webm' });
    const stopped = this.stopped ?? { at: Date.now(), heard: this.streamClock() };
    const seconds = (stopped.at - this.startedAt) / 1000;
    const recording: Recording = {
      id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      blob,
      url: this.deps.createObjectURL(blob),
      duration: Math.max(1, Math.round(seconds)),
      title: this.meta.title,
      description: this.meta.description,
      timestamp: new Date().toISOString(),
      range: recordedRange(this.heardAtStart, stopped.heard, seconds),
    };
    this.update({ status: 'idle', elapsed: 0, recordings: [recording, ...this.state.recordings] });
    this.deps.onComplete?.(recording);
  }

  private update(patch: Partial<RecorderState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }
}

export type RecordingTestResult =
  { ok: true; mimeType: string; bytes: number } | { ok: false; message: string };

/**
 * The recorder's debug test (SPEC.md sections 8 and 9): records 3 s of what `audio` plays and reports
 * 'No supported audio format found for iOS' or 'iOS test failed' when the device cannot.
 */
export function testRecording(
  audio: HTMLAudioElement,
  Recorder: typeof MediaRecorder | undefined = (globalThis as { MediaRecorder?: typeof MediaRecorder })
    .MediaRecorder,
): Promise<RecordingTestResult> {
  const mimeType = Recorder && pickRecorderMimeType((type) => Recorder.isTypeSupported(type));
  if (!Recorder || !mimeType) return Promise.resolve({ ok: false, message: RECORDER_TEXT.iosNoFormat });
  return new Promise((resolve) => {
    const failed = () => resolve({ ok: false, message: RECORDER_TEXT.iosTestFailed });
    try {
      const recorder = new Recorder(tapAudio(audio), {
        mimeType,
        audioBitsPerSecond: RECORDER_BITS_PER_SECOND,
      });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      recorder.onerror = failed;
      recorder.onstop = () => {
        const bytes = chunks.reduce((sum, c) => sum + c.size, 0);
        resolve(
          bytes > 0 ? { ok: true, mimeType, bytes } : { ok: false, message: RECORDER_TEXT.iosTestFailed },
        );
      };
      recorder.start(RECORDER_TIMESLICE_MS);
      setTimeout(() => recorder.stop(), DEBUG_TEST_RECORDING_MS);
    } catch {
      failed();
    }
  });
}
