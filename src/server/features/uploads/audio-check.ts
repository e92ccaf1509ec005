import { spawn } from 'node:child_process';
import { parseFile } from 'music-metadata';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import { heavyWork, WorkQueue } from './work-queue.js';

export class NotAudioError extends Error {}

/** The file's header claims more audio than decodes from it: cut short, or made to lie. */
export class IncompleteAudioError extends Error {
  constructor(
    readonly claimedSeconds: number,
    readonly decodedSeconds: number,
  ) {
    super(`claims ${claimedSeconds} s, decodes to ${decodedSeconds} s`);
  }
}

/** ffmpeg did not finish decoding in DECODE_TIMEOUT_MS: the station's limit, not the file's fault. */
export class DecodeTimeoutError extends Error {}

export interface CheckedAudio {
  extension: 'mp3' | 'm4a';
  mimeType: 'audio/mpeg' | 'audio/mp4';
  durationSeconds: number;
}

/**
 * What the file really is, read from its bytes (never its name or declared type): MPEG layer 3 audio, or AAC /
 * ALAC audio in an MP4 container, with a duration that can be read. The duration is the header's claim;
 * `checkUploadedAudio` also decodes the file.
 */
export async function checkAudio(file: string): Promise<CheckedAudio> {
  let format;
  try {
    ({ format } = await parseFile(file, { duration: true, skipCovers: true }));
  } catch (error) {
    throw new NotAudioError(String(error));
  }
  const duration = format.duration;
  if (!duration || !Number.isFinite(duration) || duration <= 0) throw new NotAudioError('no duration');
  const seconds = Math.round(duration);
  if (format.container === 'MPEG' && /layer 3/i.test(format.codec ?? ''))
    return { extension: 'mp3', mimeType: 'audio/mpeg', durationSeconds: seconds };
  if (/^(M4A|mp4|isom|mp42)/i.test(format.container ?? '') && /AAC|ALAC|MPEG-4/i.test(format.codec ?? ''))
    return { extension: 'm4a', mimeType: 'audio/mp4', durationSeconds: seconds };
  throw new NotAudioError(`${format.container ?? 'unknown'} / ${format.codec ?? 'unknown'}`);
}

/**
 * Audio files are decoded in the station's turns at heavy work (one ffmpeg thread: the broadcast keeps the
 * other core); one more waits, and an upload beyond that is answered 503 at once.
 */
export const audioQueue = new WorkQueue(heavyWork, 1);

/** About 3 hours of MP3 (the 200 MB limit) decodes in well under a minute on one core. */
export const DECODE_TIMEOUT_MS = 5 * 60_000;

/** A header may round or pad; more than this much missing is a file cut short or lying. */
const allowedShortfall = (claimed: number) => Math.max(2, claimed * 0.05);

/**
 * checkAudio, then the audio decoded from end to end by ffmpeg: a file with no audio, or much less than its
 * header claims (a 700-byte MP3 saying it holds a 30-second sermon), is refused. The duration given back is
 * the decoded one. Run it through a place in `audioQueue`.
 */
export async function checkUploadedAudio(file: string): Promise<CheckedAudio> {
  const claimed = await checkAudio(file);
  const decoded = await decodedSeconds(file, claimed.extension);
  if (decoded <= 0) throw new NotAudioError('no audio decodes');
  if (claimed.durationSeconds - decoded > allowedShortfall(claimed.durationSeconds))
    throw new IncompleteAudioError(claimed.durationSeconds, Math.round(decoded));
  return { ...claimed, durationSeconds: Math.round(decoded) };
}

/**
 * How many seconds of the first audio stream decode, read from ffmpeg's progress report at the end. The
 * container is named, as music-metadata found it, rather than guessed again from a file without extension.
 */
function decodedSeconds(file: string, container: CheckedAudio['extension']): Promise<number> {
  return new Promise((resolve, reject) => {
    const ffmpeg = spawn(
      ffmpegPath(),
      [
        ...['-nostdin', '-v', 'error', '-nostats', '-threads', '1'],
        ...['-f', container === 'mp3' ? 'mp3' : 'mov', '-i', file],
        ...['-map', '0:a:0', '-f', 'null', '-progress', 'pipe:1', '-'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let progress = '';
    let errors = '';
    ffmpeg.stdout.on('data', (chunk: Buffer) => (progress = (progress + chunk.toString()).slice(-4096)));
    ffmpeg.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4096)));
    const timer = setTimeout(() => {
      ffmpeg.kill('SIGKILL');
      reject(new DecodeTimeoutError(`no result within ${DECODE_TIMEOUT_MS} ms`));
    }, DECODE_TIMEOUT_MS);
    ffmpeg.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    ffmpeg.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new NotAudioError(`ffmpeg: ${errors.trim() || `exit ${code}`}`));
      const times = [...progress.matchAll(/^out_time_us=(\d+)$/gm)];
      const last = times.at(-1)?.[1];
      resolve(last === undefined ? 0 : Number(last) / 1e6);
    });
  });
}
