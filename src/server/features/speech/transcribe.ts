import { spawn } from 'node:child_process';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import { CaptionLines } from './caption-lines.js';
import { SPEECH_RATE, type Recogniser, type TimedWord } from './recogniser.js';
import type { TranscriptCue } from './vtt-file.js';

/** Audio waiting at the recogniser past this is held back: a file decodes far faster than it is heard. */
const AHEAD_SECONDS = 8;

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/**
 * A recording's words, timed from its start, as cues a reader can follow (a few seconds each, broken at
 * pauses): the file decoded by ffmpeg to speech samples and heard by the recogniser, no faster than it
 * answers.
 */
export async function transcribeFile(file: string, recogniser: Recogniser): Promise<TranscriptCue[]> {
  const words: TimedWord[] = [];
  const off = recogniser.onWords((batch) => words.push(...batch.words));
  await until(() => recogniser.status().state !== 'starting');
  const ffmpeg = spawn(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', String(SPEECH_RATE)].concat([
      '-f',
      's16le',
      '-',
    ]),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  ffmpeg.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-500)));
  const exited = new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));
  let fed = 0;
  let odd: Buffer | null = null;
  try {
    for await (const chunk of ffmpeg.stdout as AsyncIterable<Buffer>) {
      const data: Buffer = odd ? Buffer.concat([odd, chunk]) : chunk;
      const whole = data.length - (data.length % 2);
      odd = whole < data.length ? data.subarray(whole) : null;
      const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + whole));
      recogniser.feed(fed / SPEECH_RATE, samples);
      fed += samples.length;
      if (recogniser.status().state === 'paused') throw new Error(recogniser.status().reason ?? 'paused');
      await until(() => (recogniser.status().behindSeconds ?? 0) < AHEAD_SECONDS);
    }
    if ((await exited) !== 0)
      throw new Error(`the file could not be decoded (${stderr.trim() || 'ffmpeg failed'})`);
    recogniser.flush();
    await until(() => recogniser.status().behindSeconds === 0 || recogniser.status().state === 'paused');
    if (recogniser.status().state === 'paused') throw new Error(recogniser.status().reason ?? 'paused');
  } finally {
    off();
    ffmpeg.kill();
  }
  const cues: TranscriptCue[] = [];
  const lines = new CaptionLines((line) => cues.push({ text: line.text, start: line.start, end: line.end }), {
    maxSeconds: 5,
    maxWords: 16,
  });
  lines.add(words, true);
  return cues;
}
