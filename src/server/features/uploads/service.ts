import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { imageQueue, reencodeImage } from './image-processing.js';
import type { Place } from './work-queue.js';

// What other features may use of uploads: where the files are, what an audio file holds, how files are received
// and checked, and the lines heavy work waits in.
export {
  AUDIO_TYPES,
  audioQueue,
  checkAudio,
  checkUploadedAudio,
  DecodeTimeoutError,
  IncompleteAudioError,
  NoAudioStreamError,
  probeAudio,
  TruncatedAudioError,
  type CheckedAudio,
  type ProbedAudio,
} from './audio-check.js';
export { imageQueue, NotAnImageError, PictureTooLargeError } from './image-processing.js';
export { FieldTooLongError, isSystemError, isTooLarge, MULTIPART_LIMITS, receiveFile } from './receive.js';
export { BUSY_RETRY_AFTER_SECONDS, heavyWork, type Place } from './work-queue.js';

export const UPLOADS_PREFIX = '/uploads/';

/** Files the station works on in the folder: an upload being received, a picture's pixels (dot-names, never served). */
const WORK_FILE = /^\.(?:incoming|pixels)-[0-9a-f]{16}(?:\.png)?$/;
/**
 * A work file untouched this long was left by a crash or a power cut: nothing works on one for longer (audio
 * is checked one upload at a time, at most four in line, each stopped at 10 minutes), so instances sharing the
 * folder leave each other's uploads alone.
 */
const LEFTOVER_MS = 60 * 60_000;

/** Removes the work files an interrupted station left in `dir`, and answers their names. */
export async function sweepLeftovers(dir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    if (!WORK_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const changed = (await stat(file).catch(() => undefined))?.mtimeMs ?? now;
    if (
      now - changed >= LEFTOVER_MS &&
      (await unlink(file).then(
        () => true,
        () => false,
      ))
    )
      removed.push(name);
  }
  return removed;
}

/** The image line is full: answer 503 with Retry-After. */
export class UploadsBusyError extends Error {}

export interface UploadsFolder {
  dir: string;
  /** A new name in the folder for a file being received (a dot-name: never served). */
  incomingFile(): string;
  /** The file behind an /uploads/ address, or undefined when the address names none. */
  fileFor(url: string): string | undefined;
  /**
   * Re-encodes a picture (bytes or a file) as an image upload is, stores it and answers its /uploads/ address.
   * It runs in `place` (taken in imageQueue), or in a place of its own: UploadsBusyError when none is free.
   * NotAnImageError when it is not a picture we take.
   */
  saveImage(input: Buffer | string, place?: Place): Promise<string>;
}

/** DATA_DIR/uploads, or a temporary folder (removed on close) when the station runs in memory. */
export function openUploadsFolder(app: FastifyInstance, dataDir: string): UploadsFolder {
  let dir: string;
  if (dataDir === 'memory://') {
    const temporary = mkdtempSync(path.join(os.tmpdir(), 'station-uploads-'));
    app.addHook('onClose', async () => rmSync(temporary, { recursive: true, force: true }));
    dir = temporary;
  } else {
    dir = path.resolve(dataDir, 'uploads');
    mkdirSync(dir, { recursive: true });
    const folder = dir;
    const sweep = () =>
      sweepLeftovers(folder).then(
        (names) => {
          if (names.length) app.log.info({ files: names.length }, 'removed what interrupted uploads left');
        },
        (error: unknown) => app.log.warn({ err: error }, 'could not look for what interrupted uploads left'),
      );
    void sweep();
    const timer = setInterval(sweep, LEFTOVER_MS).unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  return {
    dir,
    incomingFile: () => path.join(dir, `.incoming-${randomBytes(8).toString('hex')}`),
    fileFor(url) {
      const name = url.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : '';
      return /^[0-9a-f]{32}\.[a-z0-9]{2,4}$/.test(name) ? path.join(dir, name) : undefined;
    },
    async saveImage(input, given) {
      const place = given ?? imageQueue.admit();
      if (!place) throw new UploadsBusyError('the image line is full');
      try {
        const image = await place.run(() => reencodeImage(input, dir));
        const name = `${randomBytes(16).toString('hex')}.${image.extension}`;
        await writeFile(path.join(dir, name), image.data, { flag: 'wx' });
        return `${UPLOADS_PREFIX}${name}`;
      } finally {
        if (!given) place.leave();
      }
    },
  };
}
