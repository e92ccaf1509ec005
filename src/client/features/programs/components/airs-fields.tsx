import { useEffect, useId, useState, type ReactNode } from 'react';
import { MEDIA_KIND_LABELS, type MediaItem } from '../../../../common/library';
import {
  AIRS_KINDS,
  AIRS_KIND_LABELS,
  NEWEST_KINDS,
  type Airs,
  type OVERRUN_MODES,
  type AirsKind,
} from '../../../../common/programs';
import { FieldError } from '../../../components/form/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import {
  usePlaylistOptions,
  usePresenterOptions,
  useRecordingSearch,
  type PlaylistOption,
  type PresenterOption,
} from '../staff-api';

/** A native select in the admin panel's input look (keyboard and screen readers get the platform's own). */
export const SELECT_CLASS =
  'flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500';

type Overrun = (typeof OVERRUN_MODES)[number];
type NewestKind = (typeof NEWEST_KINDS)[number];

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

function RadioChoice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: Record<T, string>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-900">{legend}</legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
        {(Object.keys(options) as T[]).map((option) => (
          <label key={option} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="h-4 w-4 accent-amber-600"
            />
            {options[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Note({ children, tone = 'muted' }: { children: ReactNode; tone?: 'muted' | 'error' }) {
  return <p className={tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>{children}</p>;
}

/** Waits until typing stops before searching the library. */
function useSettled(value: string, ms = 250) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The "What airs" part of a programme's form: the kind, its choice, how it starts, what follows. */
export function AirsFields({
  value,
  onChange,
  errors = {},
}: {
  value: AirsDraft;
  onChange: (next: AirsDraft) => void;
  errors?: AirsErrors;
}) {
  const base = useId();
  const playlists = usePlaylistOptions();
  const set = (change: Partial<AirsDraft>) => onChange({ ...value, ...change });
  const id = (name: string) => `${base}-airs-${name}`;
  const problem = (name: keyof AirsErrors, message: string) => (
    <FieldError id={`${id(name)}-error`} message={errors[name] ? message : undefined} />
  );

  return (
    <fieldset className="space-y-4 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-blue-950">What airs</legend>
      <div className="space-y-2">
        <Label htmlFor={id('kind')}>Plays</Label>
        <select
          id={id('kind')}
          className={SELECT_CLASS}
          value={value.kind}
          onChange={(event) => set({ kind: event.target.value as AirsKind })}
        >
          {AIRS_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {AIRS_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        {value.kind === 'rotation' && (
          <Note>The default rotation plays on; the programme is listed in the schedule.</Note>
        )}
      </div>

      {value.kind === 'playlist' && (
        <div className="space-y-2">
          <Label htmlFor={id('playlistId')}>Playlist</Label>
          <PlaylistSelect
            id={id('playlistId')}
            query={playlists}
            value={value.playlistId ?? ''}
            placeholder="Choose a playlist"
            invalid={Boolean(errors.playlistId)}
            onChange={(playlistId) => set({ playlistId: playlistId || undefined })}
          />
          {problem('playlistId', 'Choose a playlist')}
        </div>
      )}

      {value.kind === 'recording' && (
        <RecordingPicker
          id={id('mediaId')}
          value={value.mediaId}
          invalid={Boolean(errors.mediaId)}
          onChange={(mediaId) => set({ mediaId })}
          error={problem('mediaId', 'Choose a recording from the library')}
        />
      )}

      {value.kind === 'newest' && (
        <div className="space-y-2">
          <Label htmlFor={id('mediaKind')}>Newest recording of kind</Label>
          <select
            id={id('mediaKind')}
            className={SELECT_CLASS}
            value={value.mediaKind ?? 'sermon'}
            onChange={(event) => set({ mediaKind: event.target.value as NewestKind })}
          >
            {NEWEST_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {MEDIA_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
          <Note>
            Each time, the slot plays the newest {value.mediaKind ?? 'sermon'} uploaded to the library.
          </Note>
        </div>
      )}

      {value.kind === 'live' && (
        <PresenterPicker
          id={id('presenterId')}
          value={value.presenterId ?? ''}
          invalid={Boolean(errors.presenterId)}
          onChange={(presenterId) => set({ presenterId: presenterId || undefined })}
          error={problem('presenterId', 'Choose a presenter')}
        />
      )}

      {value.kind !== 'rotation' && (
        <RadioChoice
          legend="Starts"
          name={id('start')}
          options={START_LABELS}
          value={value.start}
          onChange={(start) => set({ start })}
        />
      )}

      {(value.kind === 'recording' || value.kind === 'newest') && (
        <RadioChoice
          legend="If longer than the slot"
          name={id('overrun')}
          options={OVERRUN_LABELS}
          value={value.overrun ?? 'fade'}
          onChange={(overrun) => set({ overrun })}
        />
      )}

      {value.kind !== 'rotation' && (
        <div className="space-y-2">
          <Label htmlFor={id('fillPlaylistId')}>Then play</Label>
          <PlaylistSelect
            id={id('fillPlaylistId')}
            query={playlists}
            value={value.fillPlaylistId ?? ''}
            placeholder="The default rotation"
            placeholderSelectable
            onChange={(fill) => set({ fillPlaylistId: fill || null })}
          />
          <Note>
            {value.kind === 'live'
              ? 'Plays if the presenter is not on the air.'
              : value.kind === 'playlist'
                ? 'Plays if the playlist cannot fill the slot.'
                : 'Plays after a recording shorter than the slot, or when there is none.'}
          </Note>
        </div>
      )}
    </fieldset>
  );
}

function PlaylistSelect({
  id,
  query,
  value,
  placeholder,
  placeholderSelectable = false,
  invalid = false,
  onChange,
}: {
  id: string;
  query: ReturnType<typeof usePlaylistOptions>;
  value: string;
  placeholder: string;
  /** The empty choice means something ("The default rotation") rather than "nothing chosen yet". */
  placeholderSelectable?: boolean;
  invalid?: boolean;
  onChange: (id: string) => void;
}) {
  const list = query.data ?? [];
  const none = query.isSuccess && list.length === 0;
  return (
    <>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        disabled={!query.isSuccess || (none && !placeholderSelectable)}
        aria-invalid={invalid}
        aria-describedby={`${id}-error`}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="" disabled={!placeholderSelectable}>
          {placeholder}
        </option>
        {list.map((playlist) => (
          <option key={playlist.id} value={playlist.id}>
            {playlist.name}
          </option>
        ))}
        {value && query.isSuccess && !list.some((p) => p.id === value) && (
          <option value={value}>A playlist no longer there</option>
        )}
      </select>
      {query.isPending && <Note>Loading playlists…</Note>}
      {query.isError && <Note tone="error">The playlists could not be loaded.</Note>}
      {none && !placeholderSelectable && <Note>No playlists yet</Note>}
    </>
  );
}

function PresenterPicker({
  id,
  value,
  invalid,
  onChange,
  error,
}: {
  id: string;
  value: string;
  invalid: boolean;
  onChange: (id: string) => void;
  error: ReactNode;
}) {
  const presenters = usePresenterOptions();
  const list = presenters.data ?? [];
  const none = presenters.isSuccess && list.length === 0;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Presenter</Label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        disabled={!presenters.isSuccess || none}
        aria-invalid={invalid}
        aria-describedby={`${id}-error`}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="" disabled>
          Choose a presenter
        </option>
        {list.map((presenter) => (
          <option key={presenter.id} value={presenter.id}>
            {presenter.username}
          </option>
        ))}
        {value && presenters.isSuccess && !list.some((p) => p.id === value) && (
          <option value={value}>A presenter no longer there</option>
        )}
      </select>
      {presenters.isPending && <Note>Loading presenters…</Note>}
      {presenters.isError && <Note tone="error">The presenters could not be loaded.</Note>}
      {none && <Note>No presenters yet. A superuser can add a staff account with the presenter role.</Note>}
      {error}
    </div>
  );
}

function RecordingPicker({
  id,
  value,
  invalid,
  onChange,
  error,
}: {
  id: string;
  value: string | undefined;
  invalid: boolean;
  onChange: (id: string | undefined) => void;
  error: ReactNode;
}) {
  const [search, setSearch] = useState('');
  const results = useRecordingSearch(useSettled(search));
  // The label of the recording picked here, kept while other searches are shown.
  const [picked, setPicked] = useState<{ id: string; label: string } | null>(null);
  const items = results.data?.items ?? [];
  const chosenLabel =
    value && !items.some((item) => item.id === value)
      ? picked?.id === value
        ? picked.label
        : 'The recording chosen before'
      : null;
  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-search`}>Search the library</Label>
      <Input
        id={`${id}-search`}
        type="search"
        placeholder="Title, artist or album"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <Label htmlFor={id}>Recording</Label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value ?? ''}
        aria-invalid={invalid}
        aria-describedby={`${id}-error`}
        onChange={(event) => {
          const item = items.find((i) => i.id === event.target.value);
          if (item) setPicked({ id: item.id, label: recordingLabel(item) });
          onChange(event.target.value || undefined);
        }}
      >
        <option value="" disabled>
          Choose a recording
        </option>
        {chosenLabel && <option value={value}>{chosenLabel}</option>}
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {recordingLabel(item)}
          </option>
        ))}
      </select>
      {results.isPending && <Note>Searching the library…</Note>}
      {results.isError && <Note tone="error">The library could not be searched.</Note>}
      {results.isSuccess && items.length === 0 && (
        <Note>{search.trim() ? 'No recordings match.' : 'The library is empty.'}</Note>
      )}
      {error}
    </div>
  );
}
