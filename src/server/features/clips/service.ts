import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  clipAudioPath,
  clipPagePath,
  SERVER_CLIP_SECONDS,
  type Clip,
  type ClipRange,
} from '../../../common/clips.js';
import { clipDescriptionOrDefault, clipTitleOrDefault } from '../../../common/recorder.js';
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';
import type { ClipRow } from './repository.js';
import { cutFrames, cutRange, type ClipAudioSource } from './cut.js';

export type { ClipRow };

/** DATA_DIR/clips, or a temporary folder (removed by `cleanup`) when the station runs in memory. */
export function prepareClipsDir(dataDir: string): { dir: string; cleanup: () => void } {
  if (dataDir === 'memory://') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'station-clips-'));
    return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = path.resolve(dataDir, 'clips');
  mkdirSync(dir, { recursive: true });
  return { dir, cleanup: () => {} };
}

export const clipFilePath = (dir: string, id: string) => path.join(dir, `${id}.mp3`);

/** An anonymous, stable tag for whoever asked (no address is stored). */
export function sessionTag(ip: string): string {
  return createHash('sha256').update(`clip-session:${ip}`).digest('hex').slice(0, 16);
}

export interface CreateClipInput {
  /** The seconds heard up to `streamClock`, or else a recording's stream-clock `range`. */
  seconds?: number;
  range?: ClipRange;
  title?: string;
  description?: string;
  streamClock?: number;
  sessionId: string;
  stationName: string;
}

/**
 * Cuts the seconds the listener heard (or the range they recorded) from the recent broadcast, stores the
 * MP3 and its audio_clips row.
 */
export async function createClip(
  db: Database,
  dir: string,
  source: ClipAudioSource,
  input: CreateClipInput,
): Promise<ClipRow> {
  const onAir = source.nowPlaying().current_track;
  const cut = input.range
    ? cutRange(source, input.range.from, input.range.to)
    : cutFrames(source, input.seconds ?? SERVER_CLIP_SECONDS.min, input.streamClock);
  const id = randomUUID();
  const file = clipFilePath(dir, id);
  const trackTitle = onAir.artist ? `${onAir.artist} - ${onAir.title}` : onAir.title;
  // The row and the file stand or fall together: the row is written in a transaction that commits only
  // once the file is on disk, and a failed commit takes the file away again.
  const store = (tx: Database) =>
    repository.insertClip(tx, {
      id,
      title: clipTitleOrDefault(input.title, onAir.title, input.stationName),
      description: clipDescriptionOrDefault(input.description),
      duration: Math.max(1, Math.round(cut.duration)),
      trackTitle,
      audioUrl: clipAudioPath(id),
      mimeType: 'audio/mpeg',
      fileSize: cut.audio.length,
      sessionId: input.sessionId,
    });
  try {
    return await db.transaction(async (tx) => {
      const row = await store(tx as unknown as Database);
      await writeFile(file, cut.audio);
      return row;
    });
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  }
}

export const findClip = repository.clipById;
export const countDownload = repository.incrementDownloads;
export const countShare = repository.incrementShares;

export function toClip(row: ClipRow): Clip {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration: row.duration,
    trackTitle: row.trackTitle,
    mimeType: row.mimeType,
    fileSize: row.fileSize,
    createdAt: row.createdAt.toISOString(),
    shareCount: row.shareCount,
    downloadCount: row.downloadCount,
    audioUrl: row.audioUrl,
    shareUrl: clipPagePath(row.id),
  };
}
