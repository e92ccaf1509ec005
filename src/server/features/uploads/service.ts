import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

// What other features may use of uploads: where the files are, and what an uploaded audio file holds.
export { checkAudio, type CheckedAudio } from './audio-check.js';

export const UPLOADS_PREFIX = '/uploads/';

export interface UploadsFolder {
  dir: string;
  /** The file behind an /uploads/ address, or undefined when the address names none. */
  fileFor(url: string): string | undefined;
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
  }
  return {
    dir,
    fileFor(url) {
      const name = url.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : '';
      return /^[0-9a-f]{32}\.[a-z0-9]{2,4}$/.test(name) ? path.join(dir, name) : undefined;
    },
  };
}
