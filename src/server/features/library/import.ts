import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { MediaKind } from '../../../common/library.js';
import type { Database } from '../../db/client.js';
import { sermonsWithAudio } from '../featured-content/service.js';
import { INCOMING_PREFIX, probeAudio, type UploadsFolder } from '../uploads/service.js';
import * as repository from './repository.js';
import { describeFile } from './tags.js';

const SUBTITLE = /^\.([a-z]{2,3}(?:-[A-Za-z0-9]+)?)\.vtt$/;

interface Candidate {
  file: string;
  /** Its path as the library stores it. */
  stored: string;
  kind: MediaKind;
  title?: string;
  languages: string[];
}

/**
 * Adds to the library, kept where they are, the audio files it does not hold yet: those in the media folder
 * (with their `NAME.LANG.vtt` subtitles) and the featured sermons' uploaded audio. Each is recognised by its
 * content; anything else in the folder is left alone. Run at every start, then now and then while the station
 * runs (`settledBefore`: files changed since are still being copied in): a file is never added twice.
 * Answers the ids added; `signal` stops it between two files.
 */
export async function importFolders(
  db: Database,
  folders: { media: string },
  uploads: UploadsFolder,
  options: { signal?: AbortSignal; settledBefore?: number } = {},
): Promise<string[]> {
  const { signal, settledBefore } = options;
  const names = (await readdir(folders.media, { withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  // An upload cut off by a crash or a power cut leaves its half-received file behind. (Only at a start:
  // while the station runs, such a name is an upload being received.)
  if (settledBefore === undefined)
    for (const name of names.filter((name) => name.startsWith(INCOMING_PREFIX)))
      await unlink(path.join(folders.media, name)).catch(() => undefined);

  const stored = await repository.storedPaths(db);
  const candidates: Candidate[] = [];
  for (const name of names) {
    if (name.startsWith('.') || name.endsWith('.vtt') || stored.has(`media/${name}`)) continue;
    const stem = path.parse(name).name;
    const languages = names
      .map((other) =>
        other.startsWith(`${stem}.`) ? SUBTITLE.exec(other.slice(stem.length))?.[1] : undefined,
      )
      .filter((language): language is string => language !== undefined)
      .sort();
    candidates.push({
      file: path.join(folders.media, name),
      stored: `media/${name}`,
      kind: 'music',
      languages,
    });
  }
  for (const sermon of await sermonsWithAudio(db)) {
    const file = uploads.fileFor(sermon.audioUrl);
    if (!file || stored.has(`uploads/${path.basename(file)}`)) continue;
    // Its stored name is random: the featured item's title says what it is, unless its tags do.
    const entry = { file, stored: `uploads/${path.basename(file)}`, title: sermon.title };
    candidates.push({ ...entry, kind: 'sermon', languages: [] });
  }

  const added: string[] = [];
  for (const candidate of candidates) {
    if (signal?.aborted) break;
    // A file still being copied in waits for a later look.
    if (settledBefore !== undefined) {
      const modified = await stat(candidate.file).then(
        (s) => s.mtimeMs,
        () => Infinity,
      );
      if (modified > settledBefore) continue;
    }
    const audio = await probeAudio(candidate.file).catch(() => null);
    if (!audio) continue; // not audio we take: a picture, notes, a file still being copied in
    const name = path.basename(candidate.file);
    const row = await repository.insertRowIfNew(db, {
      ...(await describeFile(candidate.file, name, audio, candidate.title)),
      kind: candidate.kind,
      path: candidate.stored,
      subtitleLanguages: candidate.languages,
    });
    if (row) added.push(row.id);
  }
  return added;
}
