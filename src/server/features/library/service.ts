import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, rename, unlink } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { formatDuration } from '../../../common/duration.js';
import {
  libraryAudioUrl,
  licenceClassOf,
  MEDIA_FAILED_TO_PUBLISH,
  MEDIA_NOT_READY_TO_PUBLISH,
  mediaAlreadyPublished,
  mediaInUse,
  PREVIEW_LINK_SECONDS,
  type MediaItem,
  type MediaKind,
  type MediaList,
  type MediaPublish,
} from '../../../common/library.js';
import { whileCatalogueUnchanged } from '../../db/catalogue.js';
import type { Database } from '../../db/client.js';
import type { LibraryItem, LibraryProvider } from '../../radio/library.js';
import { addContent, featuredItemUsingAudio, featuredItemUsingImage } from '../featured-content/service.js';
import { signingSecret } from '../settings/service.js';
import {
  AUDIO_TYPES,
  UPLOADS_PREFIX,
  type CheckedAudio,
  type Place,
  type UploadsFolder,
} from '../uploads/service.js';
export { recordLiveProgrammes } from './air-recordings.js';
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
  /** Other features' reasons an item cannot be deleted now (a playlist plays it), handed in by app.ts. */
  inUse: InUseCheck[];
  folders: { media: string; uploads: string };
  uploads: UploadsFolder;
  worker: AnalysisWorker;
  log: FastifyBaseLogger;
}

/** Why a library item cannot be deleted now, in words for staff; undefined when nothing holds it. */
export type InUseCheck = (id: string) => Promise<string | undefined>;

/** DATA_DIR/media (a temporary folder, removed on close, when the station runs in memory) and the worker. */
export function openLibrary(
  app: FastifyInstance,
  uploads: UploadsFolder,
  options: { inUse?: InUseCheck[]; rescanMs?: number } = {},
): Library {
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
  const library: Library = { db: app.db, inUse: options.inUse ?? [], folders, uploads, worker, log: app.log };
  // The instance that runs the radio imports the media folder and measures what is left unmeasured; every
  // instance measures what it receives itself. A stop ends the import between two files.
  const stopping = new AbortController();
  let starting: Promise<void> | undefined;
  if (app.config.role !== 'web') {
    app.addHook('onReady', async () => {
      starting = startLibrary(library, stopping.signal, options.rescanMs ?? MEDIA_RESCAN_MS).catch(
        (error: unknown) => app.log.warn({ err: error }, 'media folder not imported'),
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

/** How often the media folder is looked at again while the station runs, and how long a file must be still. */
export const MEDIA_RESCAN_MS = 30_000;
const SETTLED_MS = 10_000;

/**
 * Files brought in at a start (the media folder, Content-tab sermons), then every item still unmeasured; then
 * files copied into the media folder while the station runs, once they have stopped changing.
 */
async function startLibrary(library: Library, signal: AbortSignal, rescanMs: number): Promise<void> {
  const added = await importFolders(library.db, library.folders, library.uploads, { signal });
  if (added.length) library.log.info(`library: ${added.length} file(s) found in the media folder added`);
  if (signal.aborted) return;
  for (const row of await repository.rowsWithStatus(library.db, 'analysing')) library.worker.add(row.id);
  while (!(await sleep(rescanMs, false, { signal }).catch(() => true))) {
    const settledBefore = Date.now() - SETTLED_MS;
    const found = await importFolders(library.db, library.folders, library.uploads, {
      signal,
      settledBefore,
    }).catch((error: unknown) => {
      library.log.warn({ err: error }, 'media folder not looked at again');
      return [];
    });
    if (found.length) library.log.info(`library: ${found.length} new file(s) in the media folder added`);
    for (const id of found) library.worker.add(id);
  }
}

/** The file a stored path names: a name straight inside one of the library's two folders. */
export function fileOf(folders: Library['folders'], stored: string): string {
  const [folder, name, ...rest] = stored.split('/');
  if ((folder !== 'media' && folder !== 'uploads') || !name || rest.length)
    throw new Error(`bad path ${stored}`);
  return path.join(folders[folder], name);
}

export { toItem } from './item.js';
import { toItem } from './item.js';

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

export { updateMedia, updateMediaInBulk } from './edit.js';

/** The addresses listeners may be given for an item's audio: its library address, and its /uploads/ one. */
function publicAddresses(row: Row): string[] {
  const [folder, name] = row.path.split('/');
  return [libraryAudioUrl(row.id), ...(folder === 'uploads' ? [`${UPLOADS_PREFIX}${name}`] : [])];
}

/** PostgreSQL's foreign_key_violation, as drizzle passes it on (possibly wrapped). */
const isForeignKeyViolation = (error: unknown): boolean =>
  !!error &&
  typeof error === 'object' &&
  ((error as { code?: unknown }).code === '23503' ||
    isForeignKeyViolation((error as { cause?: unknown }).cause));

export type RemoveOutcome = { outcome: 'removed' | 'not-found' } | { outcome: 'in-use'; message: string };

/**
 * Deletes an item with its file and the file's `.LANG.vtt` subtitles, unless a featured item plays its
 * audio (listeners would be left with a broken player) or another feature holds it (`inUse`).
 */
export async function removeMedia(library: Library, id: string): Promise<RemoveOutcome> {
  const row = await repository.rowById(library.db, id);
  if (!row) return { outcome: 'not-found' };
  const featured = await featuredItemUsingAudio(library.db, publicAddresses(row));
  if (featured) return { outcome: 'in-use', message: mediaInUse(featured.title) };
  const heldBy = async () => {
    for (const check of library.inUse) {
      const message = await check(id);
      if (message) return message;
    }
    return undefined;
  };
  const held = await heldBy();
  if (held) return { outcome: 'in-use', message: held };
  try {
    if (!(await repository.deleteRow(library.db, id))) return { outcome: 'not-found' };
  } catch (error) {
    // Taken into a playlist between the check and the delete: its foreign key refused the delete.
    const message = isForeignKeyViolation(error) ? await heldBy() : undefined;
    if (message) return { outcome: 'in-use', message };
    throw error;
  }
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
  await forgetArtwork(library, row);
  return { outcome: 'removed' };
}

/** An item's artwork, deleted or replaced, goes from `uploads/` unless something else still shows it. */
async function forgetArtwork(library: Library, row: Pick<Row, 'id' | 'artworkUrl'>) {
  const url = row.artworkUrl;
  const file = url && library.uploads.fileFor(url);
  if (!file) return;
  if (
    (await repository.rowWithArtwork(library.db, url, row.id)) ||
    (await featuredItemUsingImage(library.db, url))
  )
    return;
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') library.log.warn({ err: error, url }, 'artwork not removed');
  });
}

/** Whether a library item shows this picture as its artwork: a featured item dropping it leaves it then. */
export async function libraryItemUsingArtwork(db: Database, url: string) {
  return repository.rowWithArtwork(db, url);
}

/** A picture uploaded for an item becomes its artwork (re-encoded in `place`, as every upload is). */
export async function setArtwork(library: Library, id: string, picture: string, place: Place) {
  const before = await repository.rowById(library.db, id);
  if (!before) return undefined;
  const artworkUrl = await library.uploads.saveImage(picture, place);
  const row = await repository.updateRow(library.db, id, { artworkUrl });
  if (row) await forgetArtwork(library, before);
  return row && toItem(row);
}

// --- Publishing a recording ----------------------------------------------------------------------

export type PublishOutcome =
  | { outcome: 'published'; item: MediaItem; featured: { id: string; title: string; audioUrl: string } }
  | { outcome: 'not-found' }
  | { outcome: 'refused'; message: string };

/**
 * A measured recording (a live programme recorded from the air, or any item) becomes a featured sermon that
 * plays its audio, so also a podcast episode; a draft is a draft no longer and airs like any other item.
 */
export async function publishMedia(
  db: Database,
  id: string,
  input: MediaPublish & { defaultDescription: (row: { draft: boolean; createdAt: Date }) => string },
): Promise<PublishOutcome> {
  const row = await repository.rowById(db, id);
  if (!row) return { outcome: 'not-found' };
  if (row.status === 'analysing') return { outcome: 'refused', message: MEDIA_NOT_READY_TO_PUBLISH };
  if (row.status === 'failed') return { outcome: 'refused', message: MEDIA_FAILED_TO_PUBLISH };
  const already = await featuredItemUsingAudio(db, publicAddresses(row));
  if (already) return { outcome: 'refused', message: mediaAlreadyPublished(already.title) };
  const title = input.title ?? row.title;
  const featured = await addContent(db, {
    title,
    description: input.description || input.defaultDescription(row),
    type: 'sermon',
    audioUrl: libraryAudioUrl(row.id),
    imageUrl: row.artworkUrl,
    speaker: row.artist || null,
    duration: row.durationSeconds === null ? null : formatDuration(row.durationSeconds),
  });
  const published = await repository.updateRow(db, id, { draft: false, title });
  return {
    outcome: 'published',
    item: toItem(published ?? row),
    featured: { id: featured.id, title: featured.title, audioUrl: libraryAudioUrl(row.id) },
  };
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

/** A measured item ready to air, with what the schedule picks it by. */
export interface PlayableItem extends LibraryItem {
  id: string;
  title: string;
  kind: MediaKind;
  addedAt: number;
}

/** What music licences ask of an item (the as-run log keeps it as it airs; reports read it again). */
export async function licenceFieldsOf(db: Database, ids: string[]) {
  const rows = await repository.rowsByIds(db, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        title: row.title,
        artist: row.artist,
        album: row.album,
        label: row.label,
        isrc: row.isrc,
        composer: row.composer,
        ccliSongNumber: row.ccliSongNumber,
        licenceClass: licenceClassOf(row.kind),
      },
    ]),
  );
}

/** Whether an item is in the library (ready or being measured), by id. */
export async function mediaExists(db: Database, id: string): Promise<boolean> {
  return !!(await repository.rowById(db, id));
}

/** A library row as the engine plays it: its file, what analysis measured, its tags. */
export function playableItem(folders: Library['folders'], row: Row): LibraryItem & { id: string } {
  return {
    path: fileOf(folders, row.path),
    id: row.id,
    title: row.title,
    artist: row.artist || undefined,
    artworkUrl: row.artworkUrl,
    loudnessLufs: row.loudnessLufs,
    truePeakDbtp: row.truePeakDbtp,
    cueIn: row.cueInSeconds,
    cueOut: row.cueOutSeconds,
    duration: row.durationSeconds,
  };
}

/** Every measured item, in the order they came (drafts air once staff publish them). */
export async function playableItems(library: Pick<Library, 'db' | 'folders'>): Promise<PlayableItem[]> {
  const rows = await repository.rowsWithStatus(library.db, 'ready');
  return rows
    .filter((row) => !row.draft)
    .map((row) => ({
      ...playableItem(library.folders, row),
      title: row.title,
      kind: row.kind,
      addedAt: row.createdAt.getTime(),
    }));
}

/**
 * `playableItems`, read again only when the library or the playlists changed (db/catalogue.ts): the schedule
 * asks at every item and every 24-hour preview, and reading 10,000 rows was most of what a preview took.
 */
export function playableItemsReader(library: Pick<Library, 'db' | 'folders'>): () => Promise<PlayableItem[]> {
  return whileCatalogueUnchanged(library.db, () => playableItems(library));
}

/** Every measured item, in the order they came, as the AutoDJ plays them with no schedule. */
export function libraryProvider(library: Pick<Library, 'db' | 'folders'>): LibraryProvider {
  return () => playableItems(library);
}
