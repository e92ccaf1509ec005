// Owns: what a programme airs as the form holds it (AirsDraft), its labels, and the one-line summaries.
// Must not: render the form (airs-fields.tsx) nor fetch anything.
import { MEDIA_KIND_LABELS, type MediaItem } from '../../../../common/library';
import type { Airs, AirsKind, NEWEST_KINDS, OVERRUN_MODES } from '../../../../common/programs';
import type { PlaylistOption, PresenterOption } from '../staff-api';

export type Overrun = (typeof OVERRUN_MODES)[number];
export type NewestKind = (typeof NEWEST_KINDS)[number];

/**
 * What airs while staff fill the form: every kind's choice kept side by side, so switching kind and back
 * keeps what was picked. The station's contract takes only the chosen kind's fields (the rest are dropped).
 */
export interface AirsDraft {
  kind: AirsKind;
  start: Airs['start'];
  fillPlaylistId: string | null;
  playlistId?: string;
  mediaId?: string;
  mediaKind?: NewestKind;
  overrun?: Overrun;
  presenterId?: string;
}

/** The form's starting point for what a programme airs (a saved one, or the default rotation). */
export const toDraft = (airs: Partial<AirsDraft> | null | undefined): AirsDraft => ({
  kind: 'rotation',
  start: 'on_time',
  fillPlaylistId: null,
  mediaKind: 'sermon',
  overrun: 'fade',
  ...airs,
});

/** Which problem the station's contract found, per field of what airs. */
export type AirsErrors = Partial<Record<'playlistId' | 'mediaId' | 'presenterId' | 'kind', unknown>>;

export const START_LABELS: Record<Airs['start'], string> = {
  on_time: 'On time (fade what is playing)',
  after_current: 'After the current song',
};
export const OVERRUN_LABELS: Record<Overrun, string> = {
  fade: 'Fade at the end',
  finish: 'Let it finish',
};

/** 'Airs: playlist Worship Mix', 'Airs: newest sermon', 'Live: Pastor Ruth'; nothing for the rotation. */
export function airsSummary(
  airs: Airs | null | undefined,
  playlists: PlaylistOption[] = [],
  presenters: PresenterOption[] = [],
): string | null {
  switch (airs?.kind) {
    case 'playlist': {
      const name = playlists.find((p) => p.id === airs.playlistId)?.name;
      return name ? `Airs: playlist ${name}` : 'Airs: a playlist';
    }
    case 'recording':
      return 'Airs: a recording from the library';
    case 'newest':
      return `Airs: newest ${airs.mediaKind}`;
    case 'live': {
      const name = presenters.find((p) => p.id === airs.presenterId)?.username;
      return name ? `Live: ${name}` : 'Live: a presenter';
    }
    default:
      return null;
  }
}

const minutes = (seconds: number | null) =>
  seconds === null ? null : `${Math.max(1, Math.round(seconds / 60))} min`;

/** 'Sunday Sermon · Pastor Ruth (Sermon, 42 min)', with a note when it cannot play yet. */
export function recordingLabel(item: MediaItem) {
  const details = [MEDIA_KIND_LABELS[item.kind], minutes(item.duration_seconds)].filter(Boolean).join(', ');
  const state =
    item.status === 'analysing'
      ? ' (still being analysed)'
      : item.status === 'failed'
        ? ' (cannot play: analysis failed)'
        : '';
  return `${item.title}${item.artist ? ` · ${item.artist}` : ''} (${details})${state}`;
}
