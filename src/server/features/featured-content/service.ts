import type { FeaturedItem } from '../../../common/featured-content.js';
import type { Database } from '../../db/client.js';
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

/** A sample item staff edited is theirs now: removing the sample content leaves it. */
export async function updateContent(db: Database, id: string, input: FeaturedContentInput) {
  const row = await repository.updateActiveRow(db, id, { ...definedFields(input), sample: false });
  return row ? toItem(row) : undefined;
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
