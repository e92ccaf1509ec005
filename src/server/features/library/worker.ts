import { access } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { analyseAudio, SilentAudioError, ToolTimeoutError } from '../../radio/analysis.js';
import { MissingMediaToolError } from '../../radio/ffmpeg.js';
import { heavyWork, NotAnImageError, UploadsBusyError } from '../uploads/service.js';
import * as repository from './repository.js';
import { embeddedPicture } from './tags.js';

export interface WorkerDeps {
  db: Database;
  fileOf: (row: repository.MediaRow) => string;
  saveImage: (input: Buffer) => Promise<string>;
  log: FastifyBaseLogger;
}

/** How often a cover waits for the picture line to free up before the item goes without it. */
const COVER_ATTEMPTS = 30;

/**
 * Measures library items one at a time, in the order they came, in the background: the embedded cover
 * becomes the artwork, then ffmpeg (at low priority) measures duration, loudness, true peak and cue points.
 * An item ends 'ready', or 'failed' with the reason; one stopped by shutdown stays 'analysing' and is measured
 * again at the next start.
 */
export class AnalysisWorker {
  private readonly waiting: string[] = [];
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: WorkerDeps) {}

  add(id: string): void {
    if (this.stopping.signal.aborted || this.waiting.includes(id)) return;
    this.waiting.push(id);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves once every item handed in so far is measured (or the worker stopped). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.waiting.length = 0;
    await this.idle();
  }

  private async drain(): Promise<void> {
    for (let id = this.waiting.shift(); id !== undefined; id = this.waiting.shift()) {
      try {
        await this.measure(id);
      } catch (error) {
        if (!this.stopping.signal.aborted)
          this.deps.log.warn({ err: error, id }, 'library item not measured');
      }
    }
  }

  private async measure(id: string): Promise<void> {
    const { db, log } = this.deps;
    const row = await repository.rowById(db, id);
    if (!row || row.status !== 'analysing') return;
    const file = this.deps.fileOf(row);
    if (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    ) {
      await repository.finishAnalysis(db, id, { status: 'failed', error: FILE_MISSING });
      return;
    }
    if (!row.artworkUrl) {
      const artworkUrl = await this.cover(file).catch((error: unknown) => {
        log.warn({ err: error, id }, 'embedded cover not stored');
        return undefined;
      });
      if (artworkUrl) await repository.updateRow(db, id, { artworkUrl });
    }
    try {
      // Measuring decodes the whole file: it takes its turn with the uploads' decoding, not beside it.
      const found = await heavyWork.take(() => analyseAudio(file, { signal: this.stopping.signal }));
      await repository.finishAnalysis(db, id, {
        status: 'ready',
        error: null,
        durationSeconds: found.durationSeconds,
        loudnessLufs: found.loudnessLufs,
        truePeakDbtp: found.truePeakDbtp,
        cueInSeconds: found.cueInSeconds,
        cueOutSeconds: found.cueOutSeconds,
      });
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      await repository.finishAnalysis(db, id, { status: 'failed', error: failure(error) });
    }
  }

  /** The embedded cover, stored as an uploaded picture; none when there is none or it is not a picture we take. */
  private async cover(file: string): Promise<string | undefined> {
    const picture = await embeddedPicture(file);
    if (!picture) return undefined;
    for (let attempt = 0; attempt < COVER_ATTEMPTS && !this.stopping.signal.aborted; attempt++) {
      try {
        return await this.deps.saveImage(Buffer.from(picture));
      } catch (error) {
        if (error instanceof NotAnImageError) return undefined;
        if (!(error instanceof UploadsBusyError)) throw error;
        // Staff are uploading pictures: wait for the line rather than take their place.
        await setTimeout(1000, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    }
    return undefined;
  }
}

const FILE_MISSING = 'The file is missing from its folder.';

/** What staff read beside a failed item. */
function failure(error: unknown): string {
  if (error instanceof SilentAudioError) return 'No sound found: the file is silent.';
  if (error instanceof ToolTimeoutError) return 'Measuring this file took too long.';
  if (error instanceof MissingMediaToolError) return error.message;
  return 'The file could not be decoded to the end: it may be damaged.';
}
