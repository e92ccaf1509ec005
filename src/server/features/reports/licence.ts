import type { LicenceCheck, LicenceField, LicenceFormat } from '../../../common/reports.js';
import type { AsRunRow, ItemPlays } from '../as-run/service.js';
import { csvFile, tsvField } from './csv.js';
import { localTime, utcTime } from './period.js';

/**
 * An item's plays as a licence reports them: counted per item as it aired, with the library's fields where
 * staff filled them in since.
 */
export type Play = ItemPlays;

/**
 * SoundExchange's Report of Use columns for webcasters (census reporting), in their template's order; see
 * docs/reports.md for the version followed.
 */
export const SOUNDEXCHANGE_COLUMNS = [
  'NAME_OF_SERVICE',
  'TRANSMISSION_CATEGORY',
  'FEATURED_ARTIST',
  'SOUND_RECORDING_TITLE',
  'ISRC',
  'ALBUM_TITLE',
  'MARKETING_LABEL',
  'ACTUAL_TOTAL_PERFORMANCES',
] as const;

export const CCLI_COLUMNS = [
  'CCLI Song Number',
  'Song Title',
  'Artist',
  'Songwriters',
  'Times Used',
  'First Used',
  'Last Used',
];

export const AS_RUN_COLUMNS = [
  'Start (UTC)',
  'End (UTC)',
  'Start (station time)',
  'End (station time)',
  'Seconds',
  'Kind',
  'Why',
  'Programme',
  'Title',
  'Artist',
  'Album',
  'Label',
  'ISRC',
  'Composer',
  'CCLI Song Number',
  'Class',
  'Listeners (peak)',
  'Listeners (average)',
  'Performances',
];

/** Whether a format reports this play at all: SoundExchange and CCLI take music from the library only. */
export function reports(format: LicenceFormat, play: Play): boolean {
  if (format === 'csv') return true;
  return play.kind === 'library' && play.licenceClass === 'music';
}

/** What a play lacks that the format requires. */
export function missingFor(format: LicenceFormat, play: Play): LicenceField[] {
  const missing: LicenceField[] = [];
  if (format === 'soundexchange') {
    if (!play.artist) missing.push('artist');
    if (!play.title) missing.push('title');
    if (!play.isrc && !(play.album && play.label)) missing.push('isrc_or_album_and_label');
  }
  if (format === 'ccli' && !play.ccliSongNumber) missing.push('ccli_song_number');
  return missing;
}

/** The items the file would report without what the format needs, each once, most played first. */
export function licenceCheck(format: LicenceFormat, plays: Play[]): LicenceCheck {
  const reported = plays.filter((play) => reports(format, play));
  const byItem = new Map<string, LicenceCheck['missing'][number]>();
  for (const play of reported) {
    const missing = missingFor(format, play);
    if (!missing.length) continue;
    const key = play.mediaId ?? `${play.artist}\u0000${play.title}`;
    const seen = byItem.get(key);
    if (seen) seen.plays += play.plays;
    else
      byItem.set(key, {
        mediaId: play.mediaId,
        title: play.title,
        artist: play.artist,
        plays: play.plays,
        missing,
      });
  }
  const count = (plays: Play[]) => plays.reduce((sum, p) => sum + p.plays, 0);
  return {
    format,
    plays: format === 'ccli' ? count(reported.filter((p) => p.ccliSongNumber)) : count(reported),
    missing: [...byItem.values()].sort((a, b) => b.plays - a.plays || a.title.localeCompare(b.title)),
  };
}

const recordingKey = (play: Play) =>
  play.isrc || [play.artist, play.title, play.album, play.label].join('\u0000').toLowerCase();

/**
 * SoundExchange's report of use: one line per sound recording, its actual total performances the sum over its
 * plays of the listener sessions that heard any part of each play. Tab-separated, header line first.
 */
export function soundExchangeFile(plays: Play[], service: { name: string; category: string }): string {
  const recordings = new Map<string, { play: Play; performances: number }>();
  for (const play of plays.filter((p) => reports('soundexchange', p))) {
    const key = recordingKey(play);
    const seen = recordings.get(key);
    if (seen) seen.performances += play.performances;
    else recordings.set(key, { play, performances: play.performances });
  }
  const lines = [...recordings.values()]
    .sort((a, b) => b.performances - a.performances || a.play.title.localeCompare(b.play.title))
    .map(({ play, performances }) =>
      [
        service.name,
        service.category,
        play.artist,
        play.title,
        play.isrc,
        play.album,
        play.label,
        performances,
      ]
        .map(tsvField)
        .join('\t'),
    );
  return [SOUNDEXCHANGE_COLUMNS.join('\t'), ...lines].join('\r\n') + '\r\n';
}

/** CCLI-style song usage: each song with a CCLI number, how many times it aired, first and last (station time). */
export function ccliFile(plays: Play[], timeZone: string): string {
  const songs = new Map<string, { play: Play; times: number; first: Date; last: Date }>();
  for (const play of plays.filter((p) => reports('ccli', p) && p.ccliSongNumber)) {
    const seen = songs.get(play.ccliSongNumber);
    if (seen) {
      seen.times += play.plays;
      if (play.first < seen.first) seen.first = play.first;
      if (play.last > seen.last) seen.last = play.last;
    } else songs.set(play.ccliSongNumber, { play, times: play.plays, first: play.first, last: play.last });
  }
  const rows = [...songs.values()]
    .sort((a, b) => b.times - a.times || a.play.title.localeCompare(b.play.title))
    .map(({ play, times, first, last }) => [
      play.ccliSongNumber,
      play.title,
      play.artist,
      play.composer,
      times,
      localTime(first, timeZone).slice(0, 19),
      localTime(last, timeZone).slice(0, 19),
    ]);
  return csvFile(CCLI_COLUMNS, rows);
}

/** The as-run log itself, every row of the period. */
export function asRunFile(plays: AsRunRow[], timeZone: string): string {
  const rows = plays.map((p) => [
    utcTime(p.startedAt),
    p.endedAt ? utcTime(p.endedAt) : '',
    localTime(p.startedAt, timeZone),
    p.endedAt ? localTime(p.endedAt, timeZone) : '',
    p.endedAt ? Math.round((p.endedAt.getTime() - p.startedAt.getTime()) / 100) / 10 : '',
    p.kind,
    p.reason,
    p.programmeTitle ?? '',
    p.title,
    p.artist,
    p.album,
    p.label,
    p.isrc,
    p.composer,
    p.ccliSongNumber,
    p.licenceClass ?? '',
    p.listenersPeak,
    p.listenersAverage,
    p.performances,
  ]);
  return csvFile(AS_RUN_COLUMNS, rows);
}
