import { access, unlink } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  AUDIO_NO_LONGER_STORED,
  IMAGE_NO_LONGER_STORED,
  type FeaturedItem,
} from '../../../common/featured-content.js';
import type { Database } from '../../db/client.js';
import type { UploadsFolder } from '../uploads/service.js';
import * as repository from './repository.js';

type Row = repository.FeaturedRow;

export interface FeaturedContentInput {
  title: string;
  description: string;
  type: string;
  imageUrl?: string | null;
  audioUrl?: string | null;
  speaker?: string | null;
  duration?: string | null;
}

export const CONTENT_NOT_FOUND = 'Featured content not found';
export const CONTENT_HAS_NO_AUDIO = 'This item has no audio to play';

const toItem = (row: Row): FeaturedItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  description: row.description,
  imageUrl: row.imageUrl,
  audioUrl: row.audioUrl,
  duration: row.duration,
  playCount: row.playCount,
  speaker: row.speaker,
  sample: row.sample,
});

/** SPEC.md section 7: the listener's featured list, newest first. */
export async function listActiveContent(db: Database) {
  return (await repository.activeRowsNewestFirst(db)).map(toItem);
}

/** Active sermons that carry audio, newest first, with when they were added: the podcast's episodes. */
export async function sermonsWithAudio(db: Database) {
  return (await repository.activeRowsNewestFirst(db))
    .filter((row) => row.type === 'sermon' && row.audioUrl)
    .map((row) => ({ ...toItem(row), audioUrl: row.audioUrl!, addedAt: row.createdAt }));
}

/**
 * The featured item that plays one of these audio addresses, if any: the library keeps a file while one does,
 * and serves it to listeners only then.
 */
export async function featuredItemUsingAudio(db: Database, urls: string[]) {
  return urls.length ? repository.activeRowWithAudio(db, urls) : undefined;
}

/** Whether a featured item (even one deleted, which keeps its fields) shows this picture. */
export async function featuredItemUsingImage(db: Database, url: string) {
  return repository.anyRowWithImage(db, url);
}

/** Only the fields the caller sent: on PUT a field left out keeps its stored value. */
const definedFields = (input: FeaturedContentInput) =>
  Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as FeaturedContentInput;

/** `sample` only from the demo seed: what staff add is theirs. */
export async function addContent(db: Database, input: FeaturedContentInput, sample = false) {
  const [row] = await repository.insertRows(db, [{ ...definedFields(input), sample }]);
  return toItem(row!);
}

/** The Content tab's pictures and recordings, stored in uploads/, handed in by app.ts. */
export interface FeaturedFiles {
  uploads: Pick<UploadsFolder, 'fileFor'>;
  /** Whether something else (a library item's artwork) shows this picture, so it stays. */
  imageUsedElsewhere: (url: string) => Promise<boolean>;
  log: FastifyBaseLogger;
}

export type SaveOutcome =
  | { outcome: 'saved'; item: FeaturedItem }
  | { outcome: 'not-found' }
  | { outcome: 'refused'; message: string };

const isThere = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * An upload the form names that is gone: a form opened before its picture was replaced in another one, or its
 * new recording deleted in the Library tab, would otherwise save a broken address. A stored value sent back
 * unchanged always passes.
 */
async function goneUpload(
  files: FeaturedFiles,
  input: FeaturedContentInput,
  stored?: repository.FeaturedRow,
) {
  const fields = [
    ['imageUrl', IMAGE_NO_LONGER_STORED],
    ['audioUrl', AUDIO_NO_LONGER_STORED],
  ] as const;
  for (const [field, message] of fields) {
    const url = input[field];
    const file = url && url !== stored?.[field] ? files.uploads.fileFor(url) : undefined;
    if (file && !(await isThere(file))) return message;
  }
  return undefined;
}

/** POST from the Content tab: as addContent, once its uploads are checked to be there. */
export async function addStaffContent(
  db: Database,
  files: FeaturedFiles,
  input: FeaturedContentInput,
): Promise<SaveOutcome> {
  const gone = await goneUpload(files, input);
  if (gone) return { outcome: 'refused', message: gone };
  return { outcome: 'saved', item: await addContent(db, input) };
}

/**
 * Every field, the image and the audio included (null removes them). A picture replaced or removed is deleted
 * from uploads/ unless something else still shows it, as the library does with its artwork. A recording stays:
 * it is a library item (the Library tab deletes it once no featured item plays it).
 */
export async function updateContent(
  db: Database,
  files: FeaturedFiles,
  id: string,
  input: FeaturedContentInput,
): Promise<SaveOutcome> {
  const before = await repository.activeRowById(db, id);
  if (!before) return { outcome: 'not-found' };
  const gone = await goneUpload(files, input, before);
  if (gone) return { outcome: 'refused', message: gone };
  // A sample item staff edited is theirs now: removing the sample content leaves it.
  const row = await repository.updateActiveRow(db, id, { ...definedFields(input), sample: false });
  if (!row) return { outcome: 'not-found' };
  if (before.imageUrl && before.imageUrl !== row.imageUrl) await forgetImage(db, files, before.imageUrl);
  return { outcome: 'saved', item: toItem(row) };
}

/** A picture no featured item (shown or deleted) and nothing else shows leaves uploads/. */
async function forgetImage(db: Database, files: FeaturedFiles, url: string) {
  const file = files.uploads.fileFor(url);
  if (!file || (await repository.anyRowWithImage(db, url)) || (await files.imageUsedElsewhere(url))) return;
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') files.log.warn({ err: error, url }, 'featured image not removed');
  });
}

/** How many sample items (come with a fresh station, never edited) are shown. */
export const countSampleContent = repository.countSampleRows;

/** Marks the items left unedited from an earlier demo seed as sample (rows were not marked then). */
export const markSampleContent = repository.markSampleRows;

/** Deletes the sample items; staff's own and the ones they edited stay. */
export const removeSampleContent = repository.deleteSampleRows;

/** Deleting hides the item (isActive 'false') and keeps its play count; it no longer appears anywhere. */
export async function removeContent(db: Database, id: string) {
  return Boolean(await repository.updateActiveRow(db, id, { isActive: 'false' }));
}

export type PlayOutcome =
  { outcome: 'counted'; playCount: number } | { outcome: 'refused'; status: 404 | 409; message: string };

/**
 * A listen of an item's recording. An item without audio has nothing to listen to, so pressing play on
 * it (only a script can) counts nothing. A repeat from the same listener answers the count unchanged.
 */
export async function recordPlay(db: Database, id: string, repeat: boolean): Promise<PlayOutcome> {
  const state = await repository.activePlayState(db, id);
  if (!state) return { outcome: 'refused', status: 404, message: CONTENT_NOT_FOUND };
  if (!state.audioUrl) return { outcome: 'refused', status: 409, message: CONTENT_HAS_NO_AUDIO };
  if (repeat) return { outcome: 'counted', playCount: state.playCount };
  const playCount = await repository.incrementPlayCount(db, id);
  // Deleted or its audio removed between the two statements.
  if (playCount === undefined) return { outcome: 'refused', status: 404, message: CONTENT_NOT_FOUND };
  return { outcome: 'counted', playCount };
}
