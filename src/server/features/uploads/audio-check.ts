import { open } from 'node:fs/promises';
import { progressSeconds, runMediaTool, ToolTimeoutError } from '../../radio/analysis.js';
import { ffmpegPath, ffprobePath, MissingMediaToolError } from '../../radio/ffmpeg.js';
import { cleanMp3Start, mp3Decoding, mpg123Path, mpg123WholeArgs } from '../../radio/mpg123.js';
import { heavyWork, WorkQueue } from './work-queue.js';

export { MissingMediaToolError };

/** Whether this server reads an MP3 without ffmpeg (mpg123 checks and decodes it: decision 028). */
export const mp3WithoutFfmpeg = () => mpg123Path() !== null;

/** Not a kind of audio the station takes (or not audio at all). */
export class NotAudioError extends Error {}

/** A media file the station can read that holds no audio stream (a video or a picture alone). */
export class NoAudioStreamError extends Error {}

/** The file's header claims more audio than decodes from it: cut short, or made to lie. */
export class IncompleteAudioError extends Error {
  constructor(
    readonly claimedSeconds: number,
    readonly decodedSeconds: number,
  ) {
    super(`claims ${claimedSeconds} s, decodes to ${decodedSeconds} s`);
  }
}

/** A file whose container says it goes on where the file stops (a WAV's data chunk, an Ogg stream without its last page). */
export class TruncatedAudioError extends Error {}

/** ffmpeg did not finish decoding in DECODE_TIMEOUT_MS: the station's limit, not the file's fault. */
export class DecodeTimeoutError extends Error {}

/**
 * The audio the station takes, by what ffprobe finds in the bytes, named as its usual extension: MP3, AAC or
 * ALAC in MP4 (m4a), AAC in ADTS (aac), WAV (PCM), FLAC, Ogg Vorbis (ogg) and Opus, with the type each is served as.
 */
export const AUDIO_TYPES = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
} as const;
export type AudioFormat = keyof typeof AUDIO_TYPES;

export interface ProbedAudio {
  /** Also the extension the file is stored under. */
  format: AudioFormat;
  mimeType: (typeof AUDIO_TYPES)[AudioFormat];
  /** ffprobe's demuxer, named again when the file is decoded (it has no extension to guess from). */
  demuxer: string;
  sampleRate: number | null;
  channels: number | null;
  /** What the container says the audio lasts; null when ffprobe only estimated it from the bitrate. */
  claimedSeconds: number | null;
}

export interface CheckedAudio extends ProbedAudio {
  /** Whole seconds: the claim (checkAudio) or what decoded (checkUploadedAudio). */
  durationSeconds: number;
}

/** The demuxers that read the formats above; anything else (playlists, images, text) is never opened. */
const DEMUXERS = 'mp3,mov,aac,wav,flac,ogg';
const PROBE_TIMEOUT_MS = 30_000;

/** What a (demuxer, codec) pair found by ffprobe is, when it is a format we take. */
function recognise(demuxer: string, codec: string): AudioFormat | undefined {
  const mp4 = demuxer.startsWith('mov,');
  if (demuxer === 'mp3' && codec === 'mp3') return 'mp3';
  if (mp4 && (codec === 'aac' || codec === 'alac')) return 'm4a';
  if (demuxer === 'aac' && codec === 'aac') return 'aac';
  if (demuxer === 'wav' && codec.startsWith('pcm_')) return 'wav';
  if (demuxer === 'flac' && codec === 'flac') return 'flac';
  if (demuxer === 'ogg' && codec === 'vorbis') return 'ogg';
  if (demuxer === 'ogg' && codec === 'opus') return 'opus';
  return undefined;
}

interface ProbeReport {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number }[];
}

/** What the file really is, read from its bytes by ffprobe (never its name or declared type). */
export async function probeAudio(file: string): Promise<ProbedAudio> {
  const run = await runMediaTool(
    ffprobePath(),
    [
      ...['-v', 'warning', '-protocol_whitelist', 'file', '-format_whitelist', DEMUXERS],
      ...['-show_entries', 'format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels'],
      ...['-of', 'json', '-i', file],
    ],
    { timeoutMs: PROBE_TIMEOUT_MS },
  );
  let report: ProbeReport;
  try {
    report = JSON.parse(run.stdout) as ProbeReport;
  } catch {
    throw new NotAudioError('ffprobe gave no report');
  }
  const demuxer = report.format?.format_name;
  if (run.code !== 0 || !demuxer) throw new NotAudioError(`ffprobe: ${run.stderr.trim() || run.code}`);
  const audio = report.streams?.find((stream) => stream.codec_type === 'audio');
  if (!audio) throw new NoAudioStreamError(`${demuxer} without audio`);
  const format = recognise(demuxer, audio.codec_name ?? '');
  if (!format) throw new NotAudioError(`${demuxer} / ${audio.codec_name ?? 'unknown'}`);
  const claimed = Number(report.format?.duration);
  const estimated = /Estimating duration from bitrate/.test(run.stderr);
  return {
    format,
    mimeType: AUDIO_TYPES[format],
    demuxer: demuxer.split(',')[0]!,
    sampleRate: Number(audio.sample_rate) || null,
    channels: audio.channels || null,
    claimedSeconds: Number.isFinite(claimed) && claimed > 0 && !estimated ? claimed : null,
  };
}

/** The file's kind and the duration its header claims, without decoding it (the podcast's facts). */
export async function checkAudio(file: string): Promise<CheckedAudio> {
  const probed = await probeAudio(file);
  if (!probed.claimedSeconds) throw new NotAudioError('no duration');
  return { ...probed, durationSeconds: Math.round(probed.claimedSeconds) };
}

/**
 * Audio files are decoded in the station's turns at heavy work, one at a time with pictures (one ffmpeg
 * thread at low priority: the broadcast keeps the other core); a few more wait, their files on disk, and an
 * upload beyond that is answered 503 at once.
 */
export const audioQueue = new WorkQueue(heavyWork, 3);

/** About 9 hours of MP3 (a 500 MB upload) decodes in a few minutes on one core. */
export const DECODE_TIMEOUT_MS = 10 * 60_000;

/** A header may round or pad; more than this much missing is a file cut short or lying. */
const allowedShortfall = (claimed: number) => Math.max(2, claimed * 0.05);

/**
 * probeAudio (or an MP3's first frames), then the audio decoded from end to end (by mpg123 or ffmpeg): a file `accept` refuses, with no
 * audio, with much less than its header claims (a 700-byte MP3 saying it holds a 30-second sermon), or cut
 * off where its container says it goes on, is refused. The duration given back is the decoded one. Run it
 * through a place in `audioQueue`.
 */
export async function checkUploadedAudio(
  file: string,
  accept: (audio: ProbedAudio) => boolean = () => true,
): Promise<CheckedAudio> {
  const probed = cleanMp3(file) ?? (await probeAudio(file));
  if (!accept(probed)) throw new NotAudioError(`${probed.format} not taken here`);
  const decoded = await decodedSeconds(file, probed);
  if (decoded <= 0) throw new NotAudioError('no audio decodes');
  const claimed = probed.claimedSeconds;
  if (claimed !== null && claimed - decoded > allowedShortfall(claimed))
    throw new IncompleteAudioError(Math.round(claimed), Math.round(decoded));
  if (!(await endsWhole(file, probed.format))) throw new TruncatedAudioError('the file stops early');
  return { ...probed, durationSeconds: Math.round(decoded) };
}

/**
 * An MP3 that starts cleanly, on a system with mpg123 to decode it: known from its first frames without an
 * ffprobe (a process of about 30 MB, docs/decisions/028). Null for anything else.
 */
function cleanMp3(file: string): ProbedAudio | null {
  const mp3 = mpg123Path() ? cleanMp3Start(file) : null;
  if (!mp3) return null;
  const { sampleRate, channels } = mp3.header;
  const format = 'mp3';
  return {
    format,
    mimeType: AUDIO_TYPES[format],
    demuxer: format,
    sampleRate,
    channels,
    claimedSeconds: mp3.claimedSeconds,
  };
}

/**
 * How many seconds of the first audio stream decode: an MP3's samples counted as mpg123 decodes them, where the
 * system has it (docs/decisions/028), anything else read from ffmpeg's progress report at the end.
 */
async function decodedSeconds(file: string, probed: ProbedAudio): Promise<number> {
  const mp3 = probed.format === 'mp3' ? mp3Decoding(file) : null;
  let bytes = 0;
  let run;
  try {
    run = mp3
      ? await runMediaTool(mp3.path, mpg123WholeArgs(file, mp3.header, 's16', true), {
          timeoutMs: DECODE_TIMEOUT_MS,
          onStdout: (chunk) => (bytes += chunk.length),
        })
      : await runMediaTool(
          ffmpegPath(),
          [
            ...['-nostdin', '-v', 'error', '-nostats', '-threads', '1', '-protocol_whitelist', 'file'],
            ...['-f', probed.demuxer, '-i', file],
            ...['-map', '0:a:0', '-f', 'null', '-progress', 'pipe:1', '-'],
          ],
          { timeoutMs: DECODE_TIMEOUT_MS },
        );
  } catch (error) {
    throw error instanceof ToolTimeoutError ? new DecodeTimeoutError(error.message) : error;
  }
  const tool = mp3 ? 'mpg123' : 'ffmpeg';
  if (run.code !== 0) throw new NotAudioError(`${tool}: ${run.stderr.trim() || `exit ${run.code}`}`);
  // mpg123 wrote 16-bit mono samples at the file's own rate.
  return mp3 ? bytes / 2 / mp3.header.sampleRate : progressSeconds(run.stdout);
}

/** The longest Ogg page (27-byte header, 255 segment sizes, 255 segments of 255 bytes): the last one starts within it. */
const OGG_TAIL_BYTES = 27 + 255 + 255 * 255;

/**
 * Whether the file holds all its container says it does. A WAV says how long its data is (streamed ones say
 * 0 or 0xFFFFFFFF: unknown); an Ogg stream marks its last page. Other formats state a duration, compared above.
 */
async function endsWhole(file: string, format: AudioFormat): Promise<boolean> {
  if (format !== 'wav' && format !== 'ogg' && format !== 'opus') return true;
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      await handle.read(buffer, 0, buffer.length, position);
      return buffer;
    };
    if (format === 'wav') {
      if ((await read(0, 4)).toString('latin1') !== 'RIFF') return true; // RF64 and others: no 32-bit sizes
      for (let at = 12, chunks = 0; at + 8 <= size && chunks < 64; chunks++) {
        const header = await read(at, 8);
        const length = header.readUInt32LE(4);
        if (header.toString('latin1', 0, 4) === 'data')
          return length === 0 || length === 0xffffffff || at + 8 + length <= size;
        at += 8 + length + (length % 2);
      }
      return false;
    }
    const tail = await read(Math.max(0, size - OGG_TAIL_BYTES), OGG_TAIL_BYTES);
    const last = tail.lastIndexOf('OggS');
    // Header type flag 0x04: the end of the stream.
    return last >= 0 && last + 5 < tail.length && (tail[last + 5]! & 0x04) !== 0;
  } finally {
    await handle.close();
  }
}
