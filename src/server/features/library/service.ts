import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, rename, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import {
  libraryAudioUrl,
  PREVIEW_LINK_SECONDS,
  type MediaItem,
  type MediaKind,
  type MediaList,
  type MediaUpdate,
} from '../../../common/library.js';
import type { Database } from '../../db/client.js';
import type { LibraryItem, LibraryProvider } from '../../radio/library.js';
import { featuredItemUsingAudio } from '../featured-content/service.js';
import { signingSecret } from '../settings/service.js';
import {
  AUDIO_TYPES,
  UPLOADS_PREFIX,
  type CheckedAudio,
  type Place,
  type UploadsFolder,
} from '../uploads/service.js';
import { importFolders } from './import.js';
import * as repository from './repository.js';
import { describeFile } from './tags.js';
import { AnalysisWorker } from './worker.js';

type Row = repository.MediaRow;

/**
 * The media library: its files (DATA_DIR/media, and sermon audio from the Content tab in DATA_DIR/uploads),
 * their rows, and the worker that measures them. A row's path is `media/NAME` or `uploads/NAME`, so DATA_DIR
 * can move (or a backup be restored elsewhere) without touching the rows.
 */
export interface Library {
  db: Database;
  folders: { media: string; uploads: string };
  uploads: UploadsFolder;
  worker: AnalysisWorker;
  log: FastifyBaseLogger;
}

/** DATA_DIR/media (a temporary folder, removed on close, when the station runs in memory) and the worker. */
export function openLibrary(app: FastifyInstance, uploads: UploadsFolder): Library {
  const { dataDir } = app.config;
  let media: string;
  if (dataDir === 'memory://') {
    media = mkdtempSync(path.join(os.tmpdir(), 'station-media-'));
    app.addHook('onClose', async () => rmSync(media, { recursive: true, force: true }));
  } else {
    media = path.resolve(dataDir, 'media');
    mkdirSync(media, { recursive: true });
  }
  const folders = { media, uploads: uploads.dir };
  const worker = new AnalysisWorker({
    db: app.db,
    fileOf: (row) => fileOf(folders, row.path),
    saveImage: (picture) => uploads.saveImage(picture),
    log: app.log,
  });
  const library: Library = { db: app.db, folders, uploads, worker, log: app.log };
  // The instance that runs the radio imports the media folder and measures what is left unmeasured; every
  // instance measures what it receives itself. A stop ends the import between two files.
  const stopping = new AbortController();
  let starting: Promise<void> | undefined;
  if (app.config.role !== 'web') {
    app.addHook('onReady', async () => {
      starting = startLibrary(library, stopping.signal).catch((error: unknown) =>
        app.log.warn({ err: error }, 'media folder not imported'),
      );
    });
  }
  app.addHook('preClose', async () => {
    stopping.abort();
    await starting;
    await worker.stop();
  });
  return library;
}

/** Files brought in at a start (the media folder, Content-tab sermons), then every item still unmeasured. */
async function startLibrary(library: Library, signal: AbortSignal): Promise<void> {
  const added = await importFolders(library.db, library.folders, library.uploads, signal);
  if (added) library.log.info(`library: ${added} file(s) found in the media folder added`);
  if (signal.aborted) return;
  for (const row of await repository.rowsWithStatus(library.db, 'analysing')) library.worker.add(row.id);
}

/** The file a stored path names: a name straight inside one of the library's two folders. */
export function fileOf(folders: Library['folders'], stored: string): string {
  const [folder, name, ...rest] = stored.split('/');
  if ((folder !== 'media' && folder !== 'uploads') || !name || rest.length)
    throw new Error(`bad path ${stored}`);
  return path.join(folders[folder], name);
}

export const toItem = (row: Row): MediaItem => ({
  id: row.id,
  title: row.title,
  artist: row.artist,
  album: row.album,
  kind: row.kind,
  status: row.status,
  error: row.error,
  original_name: row.originalName,
  format: row.format,
  sample_rate: row.sampleRate,
  channels: row.channels,
  size_bytes: row.sizeBytes,
  duration_seconds: row.durationSeconds,
  loudness_lufs: row.loudnessLufs,
  true_peak_dbtp: row.truePeakDbtp,
  cue_in_seconds: row.cueInSeconds,
  cue_out_seconds: row.cueOutSeconds,
  artwork_url: row.artworkUrl,
  subtitle_languages: row.subtitleLanguages,
  created_at: row.createdAt.toISOString(),
});

export async function listMedia(
  db: Database,
  query: { search?: string; kind?: MediaKind; offset: number; limit: number },
): Promise<MediaList> {
  const { rows, total } = await repository.listRows(db, query);
  return { items: rows.map(toItem), total };
}

/**
 * A checked upload joins the library: its tags are read, it is moved from `incoming` into the media folder
 * as ID.FORMAT, and measured in the background. Nothing is kept if any step fails.
 */
export async function addUpload(
  library: Library,
  upload: { incoming: string; originalName: string; audio: CheckedAudio; kind: MediaKind },
): Promise<MediaItem> {
  const id = randomUUID();
  const name = `${id}.${upload.audio.format}`;
  const columns = await describeFile(upload.incoming, upload.originalName, upload.audio);
  const file = path.join(library.folders.media, name);
  await rename(upload.incoming, file);
  try {
    const row = await repository.insertRow(library.db, {
      id,
      ...columns,
      kind: upload.kind,
      path: `media/${name}`,
    });
    library.worker.add(row.id);
    return toItem(row);
  } catch (error) {
    await unlink(file).catch(() => undefined);
    throw error;
  }
}

/** Sermon audio stored by the Content tab's upload is a library item too (kind sermon), kept where it is. */
export async function addSermonAudio(
  library: Library,
  stored: { file: string; originalName: string; audio: CheckedAudio },
): Promise<void> {
  const row = await repository.insertRow(library.db, {
    ...(await describeFile(stored.file, stored.originalName, stored.audio)),
    kind: 'sermon',
    path: `uploads/${path.basename(stored.file)}`,
  });
  library.worker.add(row.id);
}

export async function updateMedia(db: Database, id: string, update: MediaUpdate) {
  const values = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
  const row = Object.keys(values).length
    ? await repository.updateRow(db, id, values)
    : await repository.rowById(db, id);
  return row && toItem(row);
}

/** The addresses listeners may be given for an item's audio: its library address, and its /uploads/ one. */
function publicAddresses(row: Row): string[] {
  const [folder, name] = row.path.split('/');
  return [libraryAudioUrl(row.id), ...(folder === 'uploads' ? [`${UPLOADS_PREFIX}${name}`] : [])];
}

export type RemoveOutcome =
  { outcome: 'removed' | 'not-found' } | { outcome: 'in-use'; featuredTitle: string };

/**
 * Deletes an item with its file and the file's `.LANG.vtt` subtitles, unless a featured item plays its
 * audio: listeners would be left with a broken player.
 */
export async function removeMedia(library: Library, id: string): Promise<RemoveOutcome> {
  const row = await repository.rowById(library.db, id);
  if (!row) return { outcome: 'not-found' };
  const featured = await featuredItemUsingAudio(library.db, publicAddresses(row));
  if (featured) return { outcome: 'in-use', featuredTitle: featured.title };
  if (!(await repository.deleteRow(library.db, id))) return { outcome: 'not-found' };
  const file = fileOf(library.folders, row.path);
  const { dir, name: stem } = path.parse(file);
  const subtitles = (await readdir(dir).catch(() => [] as string[])).filter(
    (name) =>
      name.startsWith(`${stem}.`) && /^\.[a-z]{2,3}(-[A-Za-z0-9]+)?\.vtt$/.test(name.slice(stem.length)),
  );
  for (const name of [path.basename(file), ...subtitles])
    await unlink(path.join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') library.log.warn({ err: error, name }, 'library file not removed');
    });
  return { outcome: 'removed' };
}

/** A picture uploaded for an item becomes its artwork (re-encoded in `place`, as every upload is). */
export async function setArtwork(library: Library, id: string, picture: string, place: Place) {
  if (!(await repository.rowById(library.db, id))) return undefined;
  const artworkUrl = await library.uploads.saveImage(picture, place);
  const row = await repository.updateRow(library.db, id, { artworkUrl });
  return row && toItem(row);
}

// --- Playing an item's audio ------------------------------------------------------------------

function previewSignature(secret: Buffer, id: string, expires: number) {
  return createHmac('sha256', secret).update(`library-preview\n${id}\n${expires}`).digest('base64url');
}

/** A signed address that plays the item for PREVIEW_LINK_SECONDS with no token (an audio element sends none). */
export async function previewUrl(db: Database, id: string, now = Date.now()) {
  if (!(await repository.rowById(db, id))) return undefined;
  const expires = Math.floor(now / 1000) + PREVIEW_LINK_SECONDS;
  const signature = previewSignature(await signingSecret(db), id, expires);
  return `/api/library/${encodeURIComponent(id)}/audio?expires=${expires}&signature=${signature}`;
}

export interface AudioFile {
  dir: string;
  name: string;
  mimeType: string;
}

const audioFileOf = (library: Library, row: Row): AudioFile => {
  const file = fileOf(library.folders, row.path);
  const mimeType = Object.entries(AUDIO_TYPES).find(([format]) => format === row.format)?.[1];
  return {
    dir: path.dirname(file),
    name: path.basename(file),
    mimeType: mimeType ?? 'application/octet-stream',
  };
};

/** The file a preview address plays; 'expired' once its time is up, undefined for a signature not ours. */
export async function previewFile(
  library: Library,
  query: { id: string; expires: number; signature: string },
  now = Date.now(),
): Promise<AudioFile | 'expired' | undefined> {
  const expected = Buffer.from(previewSignature(await signingSecret(library.db), query.id, query.expires));
  const given = Buffer.from(query.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  if (query.expires * 1000 <= now) return 'expired';
  const row = await repository.rowById(library.db, query.id);
  return row && audioFileOf(library, row);
}

/** The file behind a library item's public address, while a featured item plays it. */
export async function featuredAudioFile(library: Library, id: string): Promise<AudioFile | undefined> {
  const row = await repository.rowById(library.db, id);
  if (!row || !(await featuredItemUsingAudio(library.db, [libraryAudioUrl(row.id)]))) return undefined;
  return audioFileOf(library, row);
}

/** The file a featured item's /media/ address plays (the podcast's enclosures), if it names one. */
export async function libraryFileForUrl(library: Library, url: string): Promise<string | undefined> {
  const id = /^\/media\/([\w-]+)$/.exec(url)?.[1];
  const row = id && (await repository.rowById(library.db, id));
  return row ? fileOf(library.folders, row.path) : undefined;
}

// --- For the AutoDJ ---------------------------------------------------------------------------

/** Every measured item, in the order they came, as the AutoDJ plays them. */
export function libraryProvider(library: Pick<Library, 'db' | 'folders'>): LibraryProvider {
  return async () =>
    (await repository.rowsWithStatus(library.db, 'ready')).map((row): LibraryItem => ({
      path: fileOf(library.folders, row.path),
      id: row.id,
      title: row.title,
      artist: row.artist || undefined,
      artworkUrl: row.artworkUrl,
      loudnessLufs: row.loudnessLufs,
      truePeakDbtp: row.truePeakDbtp,
      cueIn: row.cueInSeconds,
      cueOut: row.cueOutSeconds,
      duration: row.durationSeconds,
    }));
}
