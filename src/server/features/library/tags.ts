import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseFile } from 'music-metadata';
import { ISRC_PATTERN, normaliseIsrc } from '../../../common/library.js';
import type { ProbedAudio } from '../uploads/service.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** As the Library tab's fields allow: no control character or line break, no lone surrogate, at most `max` characters. */
export function tagText(value: string | undefined, max = 200): string {
  const text = (value ?? '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...text].slice(0, max).join('').trim();
}

/** A file name as sent by a browser or found on disk, without any folder, fit to show. */
export const fileNameOf = (name: string) => tagText(name.split(/[\\/]/).at(-1), 255) || 'unnamed';

export interface Tags {
  title: string;
  artist: string;
  album: string;
  /** What licences ask for, from the tags when they hold it (ID3 TSRC, TPUB, TCOM; MP4 and Vorbis alike). */
  isrc: string;
  label: string;
  composer: string;
}

/** The first well-formed ISRC among the tags' (a file may carry several, or one with hyphens). */
function isrcOf(values: string[] | undefined): string {
  return (values ?? []).map((v) => normaliseIsrc(tagText(v, 40))).find((v) => ISRC_PATTERN.test(v)) ?? '';
}

const listText = (values: string[] | undefined, max: number) =>
  tagText([...new Set((values ?? []).map((v) => tagText(v)).filter(Boolean))].join(', '), max);

/**
 * Title, artist and album from the file's tags (ID3, MP4, Vorbis comments, RIFF INFO), else the title given,
 * else from its name as 'Artist - Title.ext' (or the whole name as the title). A file whose tags cannot be
 * read is named by its name alone.
 */
export async function readTags(file: string, originalName: string, fallbackTitle?: string): Promise<Tags> {
  const found = await parseFile(file, { duration: false, skipCovers: true }).catch(() => null);
  const common = found?.common;
  let title = tagText(common?.title);
  let artist = tagText(common?.artist ?? common?.albumartist);
  const album = tagText(common?.album);
  const licence = {
    isrc: isrcOf(common?.isrc),
    label: listText(common?.label, 200),
    composer: listText(common?.composer ?? common?.writer, 300),
  };
  title ||= tagText(fallbackTitle);
  if (!title) {
    const stem = path.parse(fileNameOf(originalName)).name.replace(/_+/g, ' ');
    const [first, ...rest] = stem.split(' - ');
    if (rest.length && !artist) {
      artist = tagText(first);
      title = tagText(rest.join(' - '));
    }
    title ||= tagText(stem) || 'Untitled';
  }
  return { title, artist, album, ...licence };
}

/** The cover picture embedded in the file (the front cover when it says which), if any. */
export async function embeddedPicture(file: string): Promise<Uint8Array | undefined> {
  const found = await parseFile(file, { duration: false }).catch(() => null);
  const pictures = found?.common.picture ?? [];
  const front = pictures.find((picture) => /front/i.test(picture.type ?? '')) ?? pictures[0];
  return front?.data;
}

/** A file's columns in the library before it is measured: its tags, name, format and size. */
export async function describeFile(
  file: string,
  originalName: string,
  audio: ProbedAudio & { durationSeconds?: number },
  fallbackTitle?: string,
) {
  const { size } = await stat(file);
  return {
    ...(await readTags(file, originalName, fallbackTitle)),
    originalName: fileNameOf(originalName),
    format: audio.format,
    sampleRate: audio.sampleRate,
    channels: audio.channels,
    sizeBytes: size,
    durationSeconds: audio.durationSeconds ?? audio.claimedSeconds,
  };
}
