import { closeSync, openSync, readSync } from 'node:fs';
import { SAMPLE_RATE } from './pcm.js';
import { optionalTool } from './ffmpeg.js';
import { FrameParser, id3v2Size, type FrameHeader } from './mp3-frames.js';

/**
 * mpg123 decodes the library's MP3 files when the system has it (Debian's `mpg123` package): a process of about
 * 1 MB where an ffmpeg holds 20 to 30 MB, most of it the pages of the 200 libraries Debian's build maps, for
 * as long as an item plays (docs/decisions/027). Other formats, and every MP3 on a machine without it, go
 * through ffmpeg. `MPG123_PATH` names one outright; set empty, ffmpeg decodes everything.
 */
export const mpg123Path = optionalTool('mpg123', 'MPG123_PATH', 'mpg123');

/** Enough of the start of a file to find its first frame after an ID3v2 tag. */
const PROBE_BYTES = 16 * 1024;

/**
 * The first MPEG audio Layer III frame's header of a file, after its ID3v2 tag (cover art included), or null
 * when the file does not start as an MP3 does.
 */
export function firstMp3Frame(path: string): FrameHeader | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const read = (at: number) => {
      const buf = Buffer.alloc(PROBE_BYTES);
      return buf.subarray(0, readSync(fd!, buf, 0, PROBE_BYTES, at));
    };
    const start = read(0);
    const tag = id3v2Size(start);
    const parser = new FrameParser();
    const frames = [...parser.push(tag ? read(tag) : start), ...parser.end()];
    return frames[0]?.header ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * mpg123's arguments decoding `file` to the station's internal format (float, stereo, 44.1 kHz) on stdout, from
 * `from` seconds for `length` seconds (null: to the end), at `gainDb`. It seeks by whole frames, where ffmpeg
 * seeks to the sample: airing starts up to a frame and the encoder's delay early (50 ms at 44.1 kHz), in the
 * silence before a cue-in or in what a decoder restarted after a crash had already sent. A mono file comes out 3 dB lower on each side, as ffmpeg turns
 * mono into stereo, so a file measured as mono airs at its measured loudness.
 */
export function mpg123Args(
  file: string,
  header: FrameHeader,
  span: { from: number; length: number | null; gainDb: number },
): string[] {
  const framesIn = (seconds: number) => (seconds * header.sampleRate) / header.samplesPerFrame;
  const skip = Math.floor(framesIn(span.from));
  const scale = 32768 * 10 ** (span.gainDb / 20) * (header.channels === 1 ? Math.SQRT1_2 : 1);
  return [
    ...['--quiet', '--stdout', '--encoding', 'f32', '--rate', String(SAMPLE_RATE), '--stereo'],
    ...(skip > 0 ? ['--skip', String(skip)] : []),
    // Never 0 frames, which mpg123 reads as no limit.
    ...(span.length !== null ? ['--frames', String(Math.max(1, Math.ceil(framesIn(span.length))))] : []),
    ...['--scale', String(Math.max(1, Math.round(scale))), file],
  ];
}
