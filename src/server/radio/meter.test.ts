import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ffmpegPath } from './ffmpeg.js';
import { AudioMeter, kWeighting, TruePeak } from './meter.js';
import { ebur128 } from './test-audio.js';

const run = promisify(execFile);
const SILENCE = { db: -50, seconds: 0.3 };

/** An ffmpeg source filter graph at `rate` with `channels`, in float samples. */
const source = (graph: string, rate: number, channels: number) =>
  `${graph},aresample=${rate},aformat=sample_fmts=flt:channel_layouts=${channels === 1 ? 'mono' : 'stereo'}`;

/** The graph's interleaved samples, exactly as ffmpeg's meters see them. */
async function render(graph: string): Promise<Float32Array> {
  const { stdout } = await run(
    ffmpegPath(),
    ['-v', 'error', '-f', 'lavfi', '-i', graph, '-f', 'f32le', '-'],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 28,
    },
  );
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4);
}

/** What ffmpeg's ebur128 (test-audio's reading of it) and silencedetect report for the same graph. */
async function ffmpegReport(graph: string) {
  const [loudness, { stderr: silence }] = await Promise.all([
    ebur128(graph, { inputArgs: ['-f', 'lavfi'] }),
    run(ffmpegPath(), [
      '-hide_banner',
      '-nostats',
      '-f',
      'lavfi',
      '-i',
      graph,
      '-af',
      'silencedetect=n=-50dB:d=0.3',
      '-f',
      'null',
      '-',
    ]),
  ]);
  return {
    lufs: loudness.lufs,
    truePeak: loudness.truePeak,
    starts: [...silence.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1])),
    ends: [...silence.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1])),
  };
}

function measure(samples: Float32Array, rate: number, channels: number, chunkFrames = 4096) {
  const meter = new AudioMeter(rate, channels, SILENCE);
  for (let at = 0; at < samples.length; at += chunkFrames * channels)
    meter.push(samples.subarray(at, at + chunkFrames * channels));
  return meter.result();
}

describe('AudioMeter', () => {
  it("gives BS.1770's K-weighting coefficients at 48 kHz", () => {
    const [shelf, highPass] = kWeighting(48000);
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 10);
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 10);
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 10);
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 10);
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 10);
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 10);
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 10);
  });

  it.each([
    ['a 997 Hz stereo sine at -20 dBFS, 44.1 kHz', 'sine=f=997:d=8,volume=0.1', 44100, 2],
    ['pink noise, 48 kHz', 'anoisesrc=d=10:c=pink:a=0.3:seed=1', 48000, 2],
    ['white noise, mono, 22.05 kHz', 'anoisesrc=d=10:c=white:a=0.4:seed=2', 22050, 1],
    ['a 3 kHz sine, 32 kHz', 'sine=f=3000:d=6,volume=0.7', 32000, 2],
    [
      'speech-like bursts in silence, 44.1 kHz',
      'anoisesrc=d=12:c=brown:a=0.5:seed=3,volume=0:enable=lt(mod(t\\,3)\\,1.2)',
      44100,
      2,
    ],
    ['a 40 Hz hum, 11.025 kHz mono', 'sine=f=40:d=6,volume=0.5', 11025, 1],
  ])(
    'agrees with ffmpeg on %s: loudness within 0.05 LU, true peak within 0.3 dB, silences to the sample',
    async (_name, graph, rate, channels) => {
      const input = source(graph, rate, channels);
      const [samples, reference] = await Promise.all([render(input), ffmpegReport(input)]);
      const found = measure(samples, rate, channels);
      expect(Math.abs(found.loudnessLufs - reference.lufs)).toBeLessThan(0.05);
      expect(Math.abs(found.truePeakDbtp - reference.truePeak)).toBeLessThan(0.3);
      expect(found.durationSeconds).toBeCloseTo(samples.length / channels / rate, 9);
      expect(found.silences.map((s) => s.start)).toEqual(reference.starts.map((s) => expect.closeTo(s, 3)));
      const ended = found.silences.map((s) => s.end ?? found.durationSeconds);
      expect(ended).toEqual(reference.ends.map((e) => expect.closeTo(e, 3)));
    },
  );

  it("reads a high sine's true peak within 0.15 dB of its real peak, where ffmpeg's overshoots by 0.5 dB", async () => {
    // sine's amplitude is 1/8; made stereo, each channel carries it 3 dB down.
    const input = source('sine=f=9000:d=6,volume=0.7', 32000, 2);
    const real = 20 * Math.log10((0.7 / 8) * Math.SQRT1_2);
    const [samples, reference] = await Promise.all([render(input), ffmpegReport(input)]);
    const found = measure(samples, 32000, 2);
    expect(Math.abs(found.truePeakDbtp - real)).toBeLessThan(0.15);
    expect(reference.truePeak - real).toBeGreaterThan(0.3);
  });

  it('finds an inter-sample peak above every sample: a sine at a quarter of the rate, sampled off its crests', () => {
    // Sampled at 45 degrees from its crests, a quarter-rate sine's samples all read 0.5 of a 0.707 peak.
    const samples = Float32Array.from(
      { length: 44100 },
      (_, i) => 0.707 * Math.sin((Math.PI / 2) * i + Math.PI / 4),
    );
    const peak = new TruePeak();
    peak.push(samples, 0, 1);
    expect(20 * Math.log10(Math.max(...samples))).toBeCloseTo(-6.02, 1);
    expect(20 * Math.log10(peak.peak)).toBeGreaterThan(-3.2);
    expect(20 * Math.log10(peak.peak)).toBeLessThan(-2.8);
  });

  it('measures the same however the samples arrive', () => {
    const samples = Float32Array.from({ length: 2 * 30000 }, (_, i) =>
      i % 7000 < 3000 ? 0 : 0.6 * Math.sin(i / 3) * Math.cos(i / 1700),
    );
    const whole = measure(samples, 8000, 2, samples.length);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (chunk) => {
        expect(measure(samples, 8000, 2, chunk)).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('reads nothing to hear in silence or under 400 ms, and a silence lasting to the end as never ending', () => {
    const silent = measure(new Float32Array(2 * 44100), 44100, 2);
    expect(silent.loudnessLufs).toBe(-Infinity);
    expect(silent.truePeakDbtp).toBe(-Infinity);
    expect(silent.silences).toEqual([{ start: 0, end: null }]);
    const short = measure(
      Float32Array.from({ length: 2 * 10000 }, (_, i) => Math.sin(i)),
      44100,
      2,
    );
    expect(short.loudnessLufs).toBe(-Infinity);
    expect(short.truePeakDbtp).toBeGreaterThan(-1);
  });
});
