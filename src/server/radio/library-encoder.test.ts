import { describe, expect, it } from 'vitest';
import { STREAM_BITRATES } from '../../common/radio.js';
import { LibraryEncoder } from './library-encoder.js';
import { lameLibrary } from './lame-library.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from './pcm.js';
import { decodeMono, windowLevels } from './test-audio.js';

/** `slots` frames' worth of a 440 Hz tone at −6 dBFS, interleaved stereo, starting at sample frame `from`. */
function tone(from: number, slots: number): Float32Array {
  const pcm = new Float32Array(slots * FRAME_SAMPLES * CHANNELS);
  for (let i = 0; i < slots * FRAME_SAMPLES; i++) {
    const s = 0.5 * Math.sin((2 * Math.PI * 440 * (from + i)) / SAMPLE_RATE);
    pcm[i * 2] = s;
    pcm[i * 2 + 1] = s;
  }
  return pcm;
}

/** Writes `seconds` of tone a tick (4 frames) at a time from `slot`, taking each slot once its frames are ready. */
function run(encoder: LibraryEncoder, slot: number, seconds: number, frames: Buffer[][]): number {
  const slots = Math.round(seconds / FRAME_SECONDS);
  let next = slot;
  for (let written = 0; written < slots; written += 4) {
    encoder.write(slot + written, tone((slot + written) * FRAME_SAMPLES, 4));
    encoder.check(performance.now(), next);
    for (let taken = encoder.take(next); taken.state === 'ready'; taken = encoder.take(next)) {
      taken.frames.forEach((frame, i) => (frames[i] ??= []).push(frame.data));
      next++;
    }
  }
  return next;
}

describe.skipIf(!lameLibrary())(
  'LibraryEncoder: every bitrate encoded by the LAME library in the process',
  () => {
    it('answers every slot at every bitrate with a frame of that bitrate, a few frames behind its audio', async () => {
      const encoder = LibraryEncoder.open({ bitrates: STREAM_BITRATES, limit: 0.89 })!;
      encoder.start(0);
      const frames: Buffer[][] = [];
      const next = run(encoder, 0, 10, frames);
      encoder.close();
      const written = Math.ceil(10 / FRAME_SECONDS / 4) * 4;
      expect(next).toBeGreaterThanOrEqual(written - 4);
      for (const [i, kbps] of STREAM_BITRATES.entries()) {
        expect(frames[i]).toHaveLength(next);
        const bytes = Buffer.concat(frames[i]!);
        // CBR: the bytes a frame-count of this bitrate holds (a padding byte in some frames).
        expect(bytes.length / (next * FRAME_SECONDS) / 125).toBeCloseTo(kbps, 0);
        const levels = windowLevels(await decodeMono(bytes), 0.5);
        // The tone through from its start to its end, no gap: both channels of a −6 dBFS sine folded to mono by
        // ffmpeg (each at −3 dB), about −6 dBFS RMS.
        expect(levels.length).toBeGreaterThanOrEqual(18);
        for (const level of levels.slice(1, -1)) {
          expect(level).toBeGreaterThan(-7.5);
          expect(level).toBeLessThan(-5);
        }
      }
    });

    it('hands the audio it has not broadcast to the encoder that takes over: no slot lost at the change', async () => {
      const first = LibraryEncoder.open({ bitrates: [128, 64], limit: 0.89 })!;
      first.start(0);
      const frames: Buffer[][] = [];
      const reached = run(first, 0, 3, frames);
      const second = LibraryEncoder.open({ bitrates: [128, 64], limit: 0.89 })!;
      second.start(reached, first.close());
      let next = reached;
      for (let taken = second.take(next); taken.state !== 'lost'; taken = second.take(next)) {
        if (taken.state === 'later') second.write(next + 8, tone((next + 8) * FRAME_SAMPLES, 4));
        else if (taken.state === 'ready') {
          taken.frames.forEach((frame, i) => frames[i]!.push(frame.data));
          next++;
        }
        if (next > reached + 40) break;
      }
      second.close();
      expect(next).toBe(reached + 41);
      const levels = windowLevels(await decodeMono(Buffer.concat(frames[0]!)), 0.25);
      for (const level of levels.slice(1, -1)) expect(level).toBeGreaterThan(-12);
    });

    it('says lost, never a frame of another slot, for a slot before its start', () => {
      const encoder = LibraryEncoder.open({ bitrates: [128], limit: 0.89 })!;
      encoder.start(100);
      encoder.write(100, tone(0, 8));
      expect(encoder.take(99)).toEqual({ state: 'lost' });
      expect(encoder.take(100).state).toBe('ready');
      encoder.close();
    });
  },
);
