import ListMusic from 'lucide-react/icons/list-music';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { PLAYLIST_ORDER_LABELS, playlistCreateSchema, type Playlist } from '../../../../common/playlists';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { notifySuccess } from '../../../lib/notify';
import { useCreatePlaylist, useDeletePlaylist, usePlaylist, usePlaylists } from '../api';
import { formatDuration } from '../../../../common/duration';
import { whyRefused } from '../refusal';
import { PlaylistItems } from './playlist-items';
import { PlaylistSettings } from './playlist-settings';

/**
 * The Playlists tab (admins and superusers): playlists of library items, played in order or shuffled, with
 * their place in the default rotation and the rules they keep; a warning when a playlist is too small for them.
 */
export function PlaylistsTab() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Playlists</CardTitle>
          <CardDescription>
            The playlists in the default rotation fill every moment nothing else is scheduled, each by its
            weight. With none in rotation the whole library plays, so the station is never silent.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <NewPlaylist onCreated={setOpen} />
          <PlaylistList open={open} onOpen={setOpen} />
        </CardContent>
      </Card>
      {open && <PlaylistEditor key={open} id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function NewPlaylist({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreatePlaylist();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const parsed = playlistCreateSchema.safeParse({ name });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Please give a name.');
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        setName('');
        notifySuccess('Playlist created', created.name);
        onCreated(created.id);
      },
      onError: (error) => setProblem(whyRefused(error, 'The playlist was not created.')),
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1 space-y-1">
        <Label htmlFor="new-playlist-name">New playlist</Label>
        <Input
          id="new-playlist-name"
          placeholder="e.g. Morning Worship"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
      </div>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create playlist'}
      </Button>
    </form>
  );
}

function PlaylistList({ open, onOpen }: { open: string | null; onOpen: (id: string | null) => void }) {
  const playlists = usePlaylists();
  if (playlists.isPending) return <p className="text-sm text-slate-600">Loading playlists…</p>;
  if (playlists.isError)
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        {whyRefused(playlists.error, 'The playlists could not be loaded.')}
      </p>
    );
  const list = playlists.data.playlists;
  if (list.length === 0)
    return <p className="text-sm text-slate-600">No playlists yet. The whole library plays in rotation.</p>;
  return (
    <ul className="space-y-3">
      {list.map((playlist) => (
        <PlaylistRow
          key={playlist.id}
          playlist={playlist}
          isOpen={open === playlist.id}
          onOpen={() => onOpen(playlist.id)}
          onDeleted={() => open === playlist.id && onOpen(null)}
        />
      ))}
    </ul>
  );
}

function PlaylistRow(props: {
  playlist: Playlist;
  isOpen: boolean;
  onOpen: () => void;
  onDeleted: () => void;
}) {
  const { playlist } = props;
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useDeletePlaylist();
  const confirmDelete = () => {
    setProblem(null);
    remove.mutate(playlist.id, {
      onSuccess: () => {
        notifySuccess('Playlist deleted', playlist.name);
        props.onDeleted();
      },
      onError: (error) => setProblem(whyRefused(error, 'The playlist was not deleted.')),
    });
  };
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="playlist-row">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex h-12 w-12 shrink-0 items-center justify-center rounded-md bg-slate-100">
          <ListMusic className="h-6 w-6 text-slate-400" aria-hidden="true" />
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h4 className="font-semibold text-slate-900">{playlist.name}</h4>
            <Badge variant="gold">{PLAYLIST_ORDER_LABELS[playlist.order]}</Badge>
            {playlist.in_rotation && <Badge>In rotation · weight {playlist.weight}</Badge>}
          </div>
          <p className="text-sm text-slate-700">
            {playlist.item_count === 1 ? '1 item' : `${playlist.item_count} items`}
            {playlist.ready_count < playlist.item_count && ` (${playlist.ready_count} ready)`} ·{' '}
            {formatDuration(playlist.duration_seconds)}
          </p>
          {playlist.warning && (
            <p className="text-sm font-medium text-amber-800" data-testid="playlist-warning">
              {playlist.warning}
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={props.onOpen}
            disabled={props.isOpen}
            aria-label={`Edit ${playlist.name}`}
          >
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button
            variant="destructive"
            size="sm"
            onClick={() => setConfirming(true)}
            disabled={remove.isPending}
            aria-label={`Delete ${playlist.name}`}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this playlist?"
        description={`"${playlist.name}" will be deleted. Its items stay in the library.`}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </li>
  );
}

function PlaylistEditor({ id, onClose }: { id: string; onClose: () => void }) {
  const playlist = usePlaylist(id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{playlist.data ? `Edit ${playlist.data.name}` : 'Edit playlist'}</CardTitle>
        <CardDescription>
          Settings and items; each change is saved at once except the settings form.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {playlist.isPending && <p className="text-sm text-slate-600">Loading…</p>}
        {playlist.isError && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {whyRefused(playlist.error, 'The playlist could not be loaded.')}
          </p>
        )}
        {playlist.data && (
          <>
            {playlist.data.warning && (
              <p className="rounded-md bg-amber-50 p-3 text-sm font-medium text-amber-800" role="status">
                {playlist.data.warning}
              </p>
            )}
            <PlaylistSettings playlist={playlist.data} />
            <PlaylistItems playlist={playlist.data} />
          </>
        )}
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </CardContent>
    </Card>
  );
}
