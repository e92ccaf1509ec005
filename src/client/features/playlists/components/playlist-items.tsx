import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import Plus from 'lucide-react/icons/plus';
import X from 'lucide-react/icons/x';
import { useState } from 'react';
import { MEDIA_KIND_LABELS } from '../../../../common/library';
import type { PlaylistDetail } from '../../../../common/playlists';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useLibrarySearch, useSetPlaylistItems } from '../api';
import { formatDuration } from '../../../../common/duration';
import { whyRefused } from '../refusal';

/** A playlist's items in playing order (move up or down, remove), and the library to add from. */
export function PlaylistItems({ playlist }: { playlist: PlaylistDetail }) {
  const setItems = useSetPlaylistItems();
  const [problem, setProblem] = useState<string | null>(null);
  const ids = playlist.items.map((item) => item.media_id);

  const save = (mediaIds: string[]) => {
    setProblem(null);
    setItems.mutate(
      { id: playlist.id, mediaIds },
      { onError: (error) => setProblem(whyRefused(error, 'The playlist was not changed.')) },
    );
  };
  const move = (index: number, by: number) => {
    const next = [...ids];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    save(next);
  };

  return (
    <div className="space-y-4">
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      {playlist.items.length === 0 ? (
        <p className="text-sm text-slate-600">No items yet: add some from the library below.</p>
      ) : (
        <ol className="space-y-2" aria-label={`Items of ${playlist.name}`}>
          {playlist.items.map((item, index) => (
            <li
              key={item.media_id}
              data-testid="playlist-item"
              className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-3"
            >
              <span className="w-6 text-right text-sm text-slate-500">{index + 1}.</span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-slate-900">{item.title}</span>
                  <Badge variant="gold">{MEDIA_KIND_LABELS[item.kind]}</Badge>
                </div>
                <p className="text-sm text-slate-700">
                  {item.artist || 'Unknown artist'}
                  {item.duration_seconds !== null && <> · {formatDuration(item.duration_seconds)}</>}
                  {item.status === 'analysing' && ' · Analysing… (plays once measured)'}
                  {item.status === 'failed' && ' · Analysis failed: never played'}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={index === 0 || setItems.isPending}
                onClick={() => move(index, -1)}
                aria-label={`Move ${item.title} up`}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={index === playlist.items.length - 1 || setItems.isPending}
                onClick={() => move(index, 1)}
                aria-label={`Move ${item.title} down`}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={setItems.isPending}
                onClick={() => save(ids.filter((id) => id !== item.media_id))}
                aria-label={`Remove ${item.title} from the playlist`}
              >
                <X aria-hidden="true" />
                Remove
              </Button>
            </li>
          ))}
        </ol>
      )}
      <AddFromLibrary
        playlistName={playlist.name}
        present={new Set(ids)}
        pending={setItems.isPending}
        onAdd={(id) => save([...ids, id])}
      />
    </div>
  );
}

/** The library searched by title, artist or album; each item not yet in the playlist can be added at its end. */
function AddFromLibrary(props: {
  playlistName: string;
  present: Set<string>;
  pending: boolean;
  onAdd: (id: string) => void;
}) {
  const [search, setSearch] = useState('');
  const found = useLibrarySearch(search);
  const items = found.data?.items ?? [];
  return (
    <div className="space-y-2 rounded-lg bg-slate-50 p-3">
      <Label htmlFor="playlist-library-search">Add from the library</Label>
      <Input
        id="playlist-library-search"
        type="search"
        placeholder="Search by title, artist or album"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {found.isError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {whyRefused(found.error, 'The library could not be searched.')}
        </p>
      )}
      {found.isSuccess && items.length === 0 && (
        <p className="text-sm text-slate-600">Nothing in the library matches.</p>
      )}
      <ul className="space-y-1" aria-label="Library items">
        {items.map((item) => (
          <li key={item.id} className="flex items-center gap-2 text-sm" data-testid="library-choice">
            <span className="min-w-0 flex-1">
              <span className="font-medium text-slate-900">{item.title}</span>
              <span className="text-slate-600">
                {' '}
                · {item.artist || 'Unknown artist'} · {MEDIA_KIND_LABELS[item.kind]}
                {item.duration_seconds !== null && <> · {formatDuration(item.duration_seconds)}</>}
              </span>
            </span>
            {props.present.has(item.id) ? (
              <span className="text-slate-500">In the playlist</span>
            ) : (
              <Button
                variant="outline"
                size="sm"
                disabled={props.pending}
                onClick={() => props.onAdd(item.id)}
                aria-label={`Add ${item.title} to ${props.playlistName}`}
              >
                <Plus aria-hidden="true" />
                Add
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
