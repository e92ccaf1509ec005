// Owns: the "What airs" part of a programme's form: the kind, its choice, how it starts, what follows.
// Must not: fetch or label on its own (airs-pickers.tsx, airs-draft.ts) nor validate (the common contract).
import { useId } from 'react';
import { MEDIA_KIND_LABELS } from '../../../../common/library';
import { AIRS_KINDS, AIRS_KIND_LABELS, NEWEST_KINDS, type AirsKind } from '../../../../common/programs';
import { FieldError } from '../../../components/form/field-error';
import { Label } from '../../../components/ui/label';
import { usePlaylistOptions } from '../staff-api';
import { OVERRUN_LABELS, START_LABELS, type AirsDraft, type AirsErrors, type NewestKind } from './airs-draft';
import { Note, PlaylistSelect, PresenterPicker, RecordingPicker, SELECT_CLASS } from './airs-pickers';

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
