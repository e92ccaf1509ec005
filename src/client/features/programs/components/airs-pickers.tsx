// Owns: the pickers of what airs: a playlist, a presenter, a recording searched in the library.
// Must not: hold the form's state (airs-fields.tsx keeps it) nor decide what a choice means for the station.
import { useEffect, useState, type ReactNode } from 'react';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { usePresenterOptions, useRecordingSearch, type usePlaylistOptions } from '../staff-api';
import { recordingLabel } from './airs-draft';

/** A native select in the admin panel's input look (keyboard and screen readers get the platform's own). */
export const SELECT_CLASS =
  'flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500';

export function Note({ children, tone = 'muted' }: { children: ReactNode; tone?: 'muted' | 'error' }) {
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

export function PlaylistSelect({
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

export function PresenterPicker({
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

export function RecordingPicker({
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
