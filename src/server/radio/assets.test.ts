import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { TEST_TRANSMISSION_DIR, TEST_TRANSMISSION_FILE } from './test-transmission.js';

const REQUIRED_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt'];

interface Cue {
  start: number;
  end: number;
  text: string;
}

const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const seconds = (stamp: string) => {
  const m = TIMESTAMP.exec(stamp);
  if (!m) throw new Error(`bad WebVTT timestamp '${stamp}'`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
};

/** A strict reading of the WebVTT file syntax (W3C WebVTT section 4): header, then cue blocks. */
function parseWebVtt(source: string): Cue[] {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const [header, ...blocks] = text.trimEnd().split(/\n{2,}/);
  if (!/^WEBVTT([ \t][^\n]*)?(\n[^\n]+)*$/.test(header!)) throw new Error('missing WEBVTT header');
  const cues: Cue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    if (/^(NOTE|STYLE|REGION)\b/.test(lines[0]!)) continue;
    if (!lines[0]!.includes('-->')) lines.shift(); // cue identifier
    const timing = /^(\S+) --> (\S+)(?:[ \t].*)?$/.exec(lines.shift() ?? '');
    if (!timing) throw new Error(`cue without a timing line: ${block}`);
    const cue = { start: seconds(timing[1]!), end: seconds(timing[2]!), text: lines.join('\n') };
    if (!(cue.end > cue.start)) throw new Error(`cue ends before it starts: ${block}`);
    if (!cue.text.trim() || cue.text.includes('-->')) throw new Error(`cue without text: ${block}`);
    cues.push(cue);
  }
  return cues;
}

const subtitleFiles = () =>
  readdirSync(TEST_TRANSMISSION_DIR).filter((name) =>
    /^test-transmission\.[a-z]{2}(-[A-Za-z]+)?\.vtt$/.test(name),
  );
const cuesOf = (language: string) =>
  parseWebVtt(readFileSync(join(TEST_TRANSMISSION_DIR, `test-transmission.${language}.vtt`), 'utf8'));

const hasFfmpeg = await promisify(execFile)('ffmpeg', ['-version']).then(
  () => true,
  () => false,
);

describe('shipped test transmission', () => {
  it('is a 30-60 s, 128 kbps CBR, 44.1 kHz MP3 tagged Test Transmission', async () => {
    const { format, common } = await parseFile(TEST_TRANSMISSION_FILE, { duration: true });
    expect(format.container).toBe('MPEG');
    expect(format.codec).toMatch(/MPEG 1 Layer 3/);
    expect(format.bitrate).toBe(128_000);
    expect(format.codecProfile).toBe('CBR');
    expect(format.sampleRate).toBe(44_100);
    expect(format.duration).toBeGreaterThanOrEqual(30);
    expect(format.duration).toBeLessThanOrEqual(60);
    expect(common.title).toBe('Test Transmission');
    expect(common.artist).toBeTruthy();
  });

  it('has subtitles in English and at least four of the listener languages', () => {
    const languages = subtitleFiles().map((name) => name.split('.')[1]);
    expect(languages).toEqual(expect.arrayContaining(REQUIRED_LANGUAGES));
    expect(existsSync(join(TEST_TRANSMISSION_DIR, 'README.md'))).toBe(true);
  });

  it('every subtitle file is valid WebVTT, in order, ending before the audio ends', async () => {
    const { format } = await parseFile(TEST_TRANSMISSION_FILE, { duration: true });
    const english = cuesOf('en');
    expect(english.length).toBeGreaterThanOrEqual(3);
    for (const name of subtitleFiles()) {
      const cues = cuesOf(name.split('.')[1]!);
      // Every translation shows the same sentences at the same times as the English.
      expect(
        cues.map(({ start, end }) => [start, end]),
        name,
      ).toEqual(english.map(({ start, end }) => [start, end]));
      cues.forEach((cue, i) => i > 0 && expect(cue.start, name).toBeGreaterThanOrEqual(cues[i - 1]!.end));
      expect(cues.at(-1)!.end, name).toBeLessThan(format.duration!);
    }
  });

  it('rejects what is not WebVTT', () => {
    expect(() => parseWebVtt('1\n00:00:01.000 --> 00:00:02.000\nhello')).toThrow(/header/);
    expect(() => parseWebVtt('WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nhello')).toThrow(/ends before/);
    expect(() => parseWebVtt('WEBVTT\n\n00:00:01,000 --> 00:00:02.000\nhello')).toThrow(/timestamp/);
    expect(() => parseWebVtt('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000')).toThrow(/without text/);
  });

  it.skipIf(!hasFfmpeg)('each cue lies on a spoken sentence of the audio', async () => {
    // Speech is found as the sound between pauses, with the low tone bed filtered out.
    const { stderr } = await promisify(execFile)('ffmpeg', [
      ...['-nostdin', '-hide_banner', '-i', TEST_TRANSMISSION_FILE],
      ...['-af', 'highpass=f=1200,silencedetect=n=-40dB:d=0.5', '-f', 'null', '-'],
    ]);
    const pauses = [...stderr.matchAll(/silence_(start|end): ([\d.]+)/g)].map((m) => Number(m[2]));
    // pauses alternate start, end, start, end...; speech is each [end, next start].
    const speech = [];
    for (let i = 1; i + 1 < pauses.length; i += 2) speech.push({ start: pauses[i]!, end: pauses[i + 1]! });
    const sentences = speech.filter(({ start, end }) => end - start > 1); // the chime is shorter
    const cues = cuesOf('en');
    expect(sentences).toHaveLength(cues.length);
    cues.forEach((cue, i) => {
      expect(Math.abs(cue.start - sentences[i]!.start)).toBeLessThan(0.15);
      expect(Math.abs(cue.end - sentences[i]!.end)).toBeLessThan(0.15);
    });
  });
});
