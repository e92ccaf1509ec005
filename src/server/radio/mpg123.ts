// Owns: decoding an MP3 with mpg123 where the system has it: the file's first frame and mpg123's arguments.
// Must not: spawn or supervise the process (decoder.ts, analysis.ts do); it says what to run.
import { closeSync, openSync, readSync } from 'node:fs';
import { SAMPLE_RATE } from './pcm.js';
import { optionalTool } from './ffmpeg.js';
import { FrameParser, id3v2Size, infoFrameCount, parseFrameHeader, type FrameHeader } from './mp3-frames.js';

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
  const start = readStart(path);
  if (!start) return null;
  const parser = new FrameParser();
  return [...parser.push(start), ...parser.end()][0]?.header ?? null;
}

/** The first PROBE_BYTES of a file after its ID3v2 tag, or null when it cannot be read. */
function readStart(path: string): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const read = (at: number) => {
      const buf = Buffer.alloc(PROBE_BYTES);
      return buf.subarray(0, readSync(fd!, buf, 0, PROBE_BYTES, at));
    };
    const start = read(0);
    const tag = id3v2Size(start);
    return tag ? read(tag) : start;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Frames in a row from the start that make a file an MP3 without asking ffprobe: ffmpeg's own MP3 probe is sure
 * of a file from seven.
 */
const CLEAN_START_FRAMES = 8;

/**
 * An MP3 that starts cleanly: after any ID3v2 tag, CLEAN_START_FRAMES Layer III frames in a row, each where the
 * last one ends and all of one kind (version, rate, channels). Its duration is what its Xing/Info or VBRI
 * header says, null without one (ffprobe would only estimate it from the bitrate). Null when the file does not
 * start so: ffprobe then decides what it is.
 */
export function cleanMp3Start(path: string): { header: FrameHeader; claimedSeconds: number | null } | null {
  const start = readStart(path);
  if (!start) return null;
  const first = parseFrameHeader(start, 0);
  if (!first) return null;
  for (let i = 1, at = first.length; i < CLEAN_START_FRAMES; i++) {
    const next = parseFrameHeader(start, at);
    if (!next || next.version !== first.version || next.sampleRate !== first.sampleRate) return null;
    if (next.channels !== first.channels) return null;
    at += next.length;
  }
  const frames = infoFrameCount(start, first);
  return {
    header: first,
    claimedSeconds: frames ? (frames * first.samplesPerFrame) / first.sampleRate : null,
  };
}

/** The mpg123 that decodes `file` and its first frame, when the file starts as an MP3 and the system has mpg123. */
export function mp3Decoding(file: string): Mp3Decoding | null {
  const path = mpg123Path();
  const header = path ? firstMp3Frame(file) : null;
  return path && header ? { path, header } : null;
}

export interface Mp3Decoding {
  path: string;
  header: FrameHeader;
}

/**
 * Read past damage to the next good frame however far it is, as ffmpeg does: by default mpg123 gives up
 * after 1 KB of bad bytes, and a file with a damaged stretch would stop playing there.
 */
const DECODE_ARGS = ['--quiet', '--stdout', '--resync-limit', '-1'];

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
    ...[...DECODE_ARGS, '--encoding', 'f32', '--rate', String(SAMPLE_RATE), '--stereo'],
    ...(skip > 0 ? ['--skip', String(skip)] : []),
    // Never 0 frames, which mpg123 reads as no limit.
    ...(span.length !== null ? ['--frames', String(Math.max(1, Math.ceil(framesIn(span.length))))] : []),
    ...['--scale', String(Math.max(1, Math.round(scale))), file],
  ];
}

/**
 * mpg123's arguments decoding all of `file` as it is, at its own rate and with its own channels (or `mono`
 * mixed down), to samples on stdout: what the library measures and the upload check counts.
 */
export function mpg123WholeArgs(file: string, header: FrameHeader, encoding: 'f32' | 's16', mono = false) {
  return [
    ...[...DECODE_ARGS, '--encoding', encoding, '--rate', String(header.sampleRate)],
    ...[mono || header.channels === 1 ? '--mono' : '--stereo', file],
  ];
}
