import { SPEECH_RATE } from './recogniser.js';

/** 10 ms frames: the level is measured on each. */
const FRAME = SPEECH_RATE / 100;
/** RMS of 16-bit samples above which a frame may be speech (about -40 dBFS)... */
const SPEECH_LEVEL = 300;
/** ...and four times the quiet frames' level, so steady noise is not speech. */
const OVER_FLOOR = 4;

export interface SegmentOptions {
  /** A pause this long after speech closes the segment. */
  pauseSeconds?: number;
  /** A segment is closed at this length even mid-speech (a long sentence). */
  maxSeconds?: number;
  /** Speech kept before the first loud frame, so a soft first consonant is not cut. */
  leadSeconds?: number;
}

export interface SpeechSegment {
  /** Stream-clock second of the first sample. */
  clock: number;
  samples: Int16Array;
}

/**
 * Cuts a stream of speech samples into segments at its pauses, for an engine that hears a whole segment
 * at a time (a transcription server). Silence alone makes no segment.
 */
export class SpeechSegmenter {
  private readonly pauseFrames: number;
  private readonly maxSamples: number;
  private readonly leadSamples: number;
  private parts: Int16Array[] = [];
  private length = 0;
  private clock = 0;
  private expected: number | null = null;
  private floor = 100;
  private quiet = 0;
  private spoken = false;
  private pending = new Int16Array(0);
  private pendingClock = 0;

  constructor(options: SegmentOptions = {}) {
    this.pauseFrames = Math.round((options.pauseSeconds ?? 0.5) * 100);
    this.maxSamples = Math.round((options.maxSeconds ?? 6) * SPEECH_RATE);
    this.leadSamples = Math.round((options.leadSeconds ?? 0.2) * SPEECH_RATE);
  }

  /** Segments these samples close. */
  push(clock: number, samples: Int16Array): SpeechSegment[] {
    const out: SpeechSegment[] = [];
    if (this.expected !== null && Math.abs(clock - this.expected) > 0.05) {
      const cut = this.close();
      if (cut) out.push(cut);
      this.pending = new Int16Array(0);
    }
    this.expected = clock + samples.length / SPEECH_RATE;
    const data = new Int16Array(this.pending.length + samples.length);
    data.set(this.pending);
    data.set(samples, this.pending.length);
    const dataClock = this.pending.length > 0 ? this.pendingClock : clock;
    let at = 0;
    for (; at + FRAME <= data.length; at += FRAME) {
      const frame = data.subarray(at, at + FRAME);
      let sum = 0;
      for (const s of frame) sum += s * s;
      const level = Math.sqrt(sum / FRAME);
      const loud = level > Math.max(SPEECH_LEVEL, this.floor * OVER_FLOOR);
      if (!loud) this.floor = Math.min(level, this.floor * 1.002 + 0.5);
      const frameClock = dataClock + at / SPEECH_RATE;
      if (loud) {
        this.quiet = 0;
        if (!this.spoken) this.begin(frameClock);
        this.spoken = true;
      } else this.quiet++;
      this.append(frame, frameClock);
      if (this.spoken && (this.quiet >= this.pauseFrames || this.length >= this.maxSamples)) {
        const cut = this.close();
        if (cut) out.push(cut);
      }
    }
    this.pending = data.slice(at);
    this.pendingClock = dataClock + at / SPEECH_RATE;
    return out;
  }

  /** Whatever speech is held, as a segment (the programme ended). */
  flush(): SpeechSegment | null {
    return this.close();
  }

  /** Speech starts: keep only the lead before it. */
  private begin(frameClock: number): void {
    const kept = Math.min(this.length, this.leadSamples);
    const all = this.joined();
    this.parts = kept > 0 ? [all.slice(all.length - kept)] : [];
    this.length = kept;
    this.clock = frameClock - kept / SPEECH_RATE;
  }

  private append(frame: Int16Array, frameClock: number): void {
    if (this.length === 0) this.clock = frameClock;
    this.parts.push(frame.slice());
    this.length += frame.length;
    // Before speech only the lead is needed: drop older silence as it passes.
    if (!this.spoken && this.length > this.leadSamples * 4) this.begin(frameClock + FRAME / SPEECH_RATE);
  }

  private joined(): Int16Array {
    const all = new Int16Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      all.set(part, at);
      at += part.length;
    }
    return all;
  }

  private close(): SpeechSegment | null {
    const segment = this.spoken && this.length > 0 ? { clock: this.clock, samples: this.joined() } : null;
    this.parts = [];
    this.length = 0;
    this.spoken = false;
    this.quiet = 0;
    return segment;
  }
}

/** A segment as a WAV file (16-bit PCM, mono), what every transcription server reads. */
export function wavFile(samples: Int16Array, rate = SPEECH_RATE): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}
