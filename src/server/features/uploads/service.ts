import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { imageQueue, reencodeImage } from './image-processing.js';
import { keepSwept } from './work-files.js';
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
  MissingMediaToolError,
  mp3WithoutFfmpeg,
  NoAudioStreamError,
  probeAudio,
  TruncatedAudioError,
  type CheckedAudio,
  type ProbedAudio,
} from './audio-check.js';
export { imageQueue, NotAnImageError, PictureTooLargeError } from './image-processing.js';
export { FieldTooLongError, isSystemError, isTooLarge, MULTIPART_LIMITS, receiveFile } from './receive.js';
export { INCOMING_PREFIX, workFile } from './work-files.js';
export { BUSY_RETRY_AFTER_SECONDS, heavyWork, type Place } from './work-queue.js';

export const UPLOADS_PREFIX = '/uploads/';

/** The image line is full: answer 503 with Retry-After. */
export class UploadsBusyError extends Error {}

export interface UploadsFolder {
  dir: string;
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
    keepSwept(app, dir);
  }
  return {
    dir,
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
