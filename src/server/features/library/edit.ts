import type { MediaBulkUpdate, MediaUpdate } from '../../../common/library.js';
import type { Database } from '../../db/client.js';
import * as repository from './repository.js';
import { toItem } from './item.js';

/** The Library tab's fields as the row's columns; a field left out keeps its value. */
function columnsOf(update: MediaUpdate): Partial<repository.MediaValues> {
  const { ccli_song_number: ccliSongNumber, ...rest } = update;
  const values: Partial<repository.MediaValues> = { ...rest, ccliSongNumber };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export async function updateMedia(db: Database, id: string, update: MediaUpdate) {
  const values = columnsOf(update);
  const row = Object.keys(values).length
    ? await repository.updateRow(db, id, values)
    : await repository.rowById(db, id);
  return row && toItem(row);
}

/**
 * The same changes to many items (a whole album's label and songwriters), all or nothing: when an item named
 * is gone, nothing changes and the answer says how many were missing.
 */
export async function updateMediaInBulk(
  db: Database,
  bulk: MediaBulkUpdate,
): Promise<{ updated: number } | { missing: number }> {
  const ids = [...new Set(bulk.ids)];
  return repository.updateRows(db, ids, columnsOf(bulk.changes));
}
