// A plain listener's capture of /stream, and where its audio left the station: each chunk of bytes is stamped
// with the wall time it arrived, its MP3 frames are found, and the decoded audio is read tone by tone.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { ffmpegPath } from '../../src/server/radio/ffmpeg';
import { FrameParser } from '../../src/server/radio/mp3-frames';
import { FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from '../../src/server/radio/pcm';

export interface Capture {
  chunks: { at: number; bytes: Buffer }[];
}

/**
 * Listens to `url` as a plain player does (GET, no ICY metadata) until `until` (epoch ms), stamping each
 * chunk with the wall time it arrived. Only stamping happens while it listens: nothing else should hold up
 * the bench's event loop.
 */
export function listen(url: string, until: number): Promise<Capture> {
  return new Promise((resolve, reject) => {
    const chunks: Capture['chunks'] = [];
    const request = http.get(url, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`${url} answered ${response.statusCode}`));
        return;
      }
      response.on('data', (bytes: Buffer) => chunks.push({ at: Date.now(), bytes }));
      response.on('error', () => undefined);
    });
    request.on('error', reject);
    setTimeout(
      () => {
        request.destroy();
        resolve({ chunks });
      },
      Math.max(0, until - Date.now()),
    );
  });
}

/** Bytes arriving within this long of the first byte are the connect burst (recent audio sent at once). */
const BURST_WINDOW_MS = 150;

/**
 * When each MP3 frame of the capture left the station (epoch ms). After the connect burst, a frame left when
 * it arrived (the station is on this machine: no network between). The burst is audio broadcast before the
 * listener came, sent again at once from the station's history: its last frame left when it arrived, and
 * each frame before it one frame's duration earlier than the frame after it (the stream is paced in real time).
 */
export function frameDepartures(capture: Capture): { bytes: Buffer; departures: number[] } {
  const parser = new FrameParser({ trusted: true });
  const arrivals: number[] = [];
  const kept: Buffer[] = [];
  for (const { at, bytes } of capture.chunks)
    for (const frame of parser.push(bytes)) {
      arrivals.push(at);
      kept.push(Buffer.from(frame.data));
    }
  if (!arrivals.length) return { bytes: Buffer.alloc(0), departures: [] };
  const burstEnd = arrivals.findLastIndex((at) => at - arrivals[0]! <= BURST_WINDOW_MS);
  const departures = arrivals.map((at, k) =>
    k < burstEnd ? arrivals[burstEnd]! - (burstEnd - k) * FRAME_SECONDS * 1000 : at,
  );
  return { bytes: Buffer.concat(kept), departures };
}

/** The capture decoded to mono samples at the stream's rate, one MP3 frame per FRAME_SAMPLES samples. */
export function decode(bytes: Buffer, frames: number): Promise<{ samples: Float32Array; skipped: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), [
      ...['-v', 'error', '-f', 'mp3', '-i', 'pipe:0'],
      ...['-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1'],
    ]);
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', () => {
      const pcm = Buffer.concat(out);
      const length = Math.floor(pcm.length / 4) * 4;
      const samples = new Float32Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + length));
      // A decoder may drop a first frame whose bit reservoir points before the capture: counted from the end.
      resolve({ samples, skipped: Math.max(0, frames * FRAME_SAMPLES - samples.length) });
    });
    child.stdin.end(bytes);
  });
}

/** Ten milliseconds: the window the tones are looked for in (441 samples: tones on 100 Hz fall on its bins). */
export const WINDOW = SAMPLE_RATE / 100;

/** Goertzel power of `hz` in each 10 ms window of `samples`. */
export function tonePower(samples: Float32Array, hz: number): Float64Array {
  const windows = Math.floor(samples.length / WINDOW);
  const out = new Float64Array(windows);
  const k = 2 * Math.cos((2 * Math.PI * hz) / SAMPLE_RATE);
  for (let w = 0; w < windows; w++) {
    let s1 = 0;
    let s2 = 0;
    for (let i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
      const s0 = samples[i]! + k * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    out[w] = s1 * s1 + s2 * s2 - k * s1 * s2;
  }
  return out;
}

/** The power of a full-level tone at `amplitude` in one window (a sine on a bin: (N·A/2)²). */
export const fullPower = (amplitude: number) => ((WINDOW * amplitude) / 2) ** 2;

/** When the sample at `sample` of the decoded capture left the station (epoch ms). */
export function departureOf(sample: number, skipped: number, departures: number[]): number {
  const position = sample + skipped;
  const frame = Math.min(departures.length - 1, Math.floor(position / FRAME_SAMPLES));
  return departures[frame]! + ((position - frame * FRAME_SAMPLES) / SAMPLE_RATE) * 1000;
}

/** The first sample of the decoded capture that left the station at or after `at` (epoch ms), or -1. */
export function sampleAt(at: number, skipped: number, departures: number[]): number {
  const frame = departures.findIndex((left) => left + FRAME_SECONDS * 1000 > at);
  if (frame < 0) return -1;
  const into = Math.max(0, Math.round(((at - departures[frame]!) / 1000) * SAMPLE_RATE));
  return Math.max(0, frame * FRAME_SAMPLES + into - skipped);
}
