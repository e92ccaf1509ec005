import { useState } from 'react';
import {
  INSERT_KINDS,
  insertRuleProblem,
  PLAYLIST_ORDER_LABELS,
  PLAYLIST_ORDERS,
  playlistUpdateSchema,
  type InsertKind,
  type Playlist,
  type PlaylistOrder,
} from '../../../../common/playlists';
import { MEDIA_KIND_LABELS } from '../../../../common/library';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { notifySuccess } from '../../../lib/notify';
import { useUpdatePlaylist } from '../api';
import { whyRefused } from '../refusal';
import { SELECT_CLASS } from './select-class';

interface Fields {
  name: string;
  order: PlaylistOrder;
  in_rotation: boolean;
  weight: string;
  insert_kind: InsertKind | '';
  insert_every_songs: string;
  insert_every_minutes: string;
  no_repeat_title_minutes: string;
  no_repeat_artist_minutes: string;
}

const fieldsOf = (playlist: Playlist): Fields => ({
  name: playlist.name,
  order: playlist.order,
  in_rotation: playlist.in_rotation,
  weight: String(playlist.weight),
  insert_kind: playlist.insert_kind ?? '',
  insert_every_songs: playlist.insert_every_songs === null ? '' : String(playlist.insert_every_songs),
  insert_every_minutes: playlist.insert_every_minutes === null ? '' : String(playlist.insert_every_minutes),
  no_repeat_title_minutes: String(playlist.no_repeat_title_minutes),
  no_repeat_artist_minutes: String(playlist.no_repeat_artist_minutes),
});

/** A typed number ('' is none); text that is not a number is passed on for the contract to refuse. */
const numberOf = (text: string) => (text.trim() === '' ? null : Number(text));

/** The body the fields make, with no insert interval left over once no insert kind is chosen. */
function bodyOf(fields: Fields) {
  const insertKind = fields.insert_kind || null;
  return {
    name: fields.name,
    order: fields.order,
    in_rotation: fields.in_rotation,
    weight: numberOf(fields.weight) ?? 1,
    insert_kind: insertKind,
    insert_every_songs: insertKind ? numberOf(fields.insert_every_songs) : null,
    insert_every_minutes: insertKind ? numberOf(fields.insert_every_minutes) : null,
    no_repeat_title_minutes: numberOf(fields.no_repeat_title_minutes) ?? 0,
    no_repeat_artist_minutes: numberOf(fields.no_repeat_artist_minutes) ?? 0,
  };
}

/** A playlist's name, order, place in the default rotation, insert rule and no-repeat times. */
export function PlaylistSettings({ playlist }: { playlist: Playlist }) {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(playlist));
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdatePlaylist();
  const set = <K extends keyof Fields>(name: K, value: Fields[K]) =>
    setFields((f) => ({ ...f, [name]: value }));
  const id = (name: string) => `playlist-${playlist.id}-${name}`;

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const parsed = playlistUpdateSchema.safeParse(bodyOf(fields));
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Please check the settings.');
    const rule = insertRuleProblem(bodyOf(fields));
    if (rule) return setProblem(rule);
    update.mutate(
      { id: playlist.id, body: parsed.data },
      {
        onSuccess: (saved) => {
          setFields(fieldsOf(saved));
          notifySuccess('Playlist saved', saved.name);
        },
        onError: (error) => setProblem(whyRefused(error, 'The playlist was not saved.')),
      },
    );
  };

  const numberField = (name: keyof Fields, label: string, hint: string, disabled = false) => (
    <div className="space-y-1">
      <Label htmlFor={id(name)}>{label}</Label>
      <Input
        id={id(name)}
        type="number"
        inputMode="numeric"
        value={fields[name] as string}
        disabled={disabled}
        aria-describedby={id(`${name}-hint`)}
        onChange={(event) => set(name, event.target.value as never)}
      />
      <p id={id(`${name}-hint`)} className="text-xs text-slate-600">
        {hint}
      </p>
    </div>
  );

  return (
    <form onSubmit={save} noValidate className="space-y-4" aria-label={`Settings of ${playlist.name}`}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor={id('name')}>Name</Label>
          <Input id={id('name')} value={fields.name} onChange={(event) => set('name', event.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor={id('order')}>Order</Label>
          <select
            id={id('order')}
            className={SELECT_CLASS}
            value={fields.order}
            onChange={(event) => set('order', event.target.value as PlaylistOrder)}
          >
            {PLAYLIST_ORDERS.map((order) => (
              <option key={order} value={order}>
                {PLAYLIST_ORDER_LABELS[order]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Switch
            id={id('in-rotation')}
            checked={fields.in_rotation}
            onCheckedChange={(checked) => set('in_rotation', checked)}
          />
          <Label htmlFor={id('in-rotation')}>
            In the default rotation (plays whenever nothing is scheduled)
          </Label>
        </div>
        {numberField(
          'weight',
          'Weight in the rotation',
          'From 1 to 100: a playlist of weight 3 plays three times as often as one of weight 1.',
          !fields.in_rotation,
        )}
        <div className="space-y-1">
          <Label htmlFor={id('insert-kind')}>Insert between songs</Label>
          <select
            id={id('insert-kind')}
            className={SELECT_CLASS}
            value={fields.insert_kind}
            onChange={(event) => set('insert_kind', event.target.value as InsertKind | '')}
          >
            <option value="">Nothing</option>
            {INSERT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {MEDIA_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        {numberField(
          'insert_every_songs',
          'Insert every … songs',
          'From 1 to 50; leave empty to go by minutes only.',
          !fields.insert_kind,
        )}
        {numberField(
          'insert_every_minutes',
          'Insert every … minutes',
          'From 1 to 240; leave empty to go by songs only.',
          !fields.insert_kind,
        )}
        {numberField(
          'no_repeat_title_minutes',
          'No repeat of a title within (minutes)',
          'The same song is not played again sooner. 0 turns this off.',
        )}
        {numberField(
          'no_repeat_artist_minutes',
          'No repeat of an artist within (minutes)',
          'Songs by the same artist are kept this far apart. 0 turns this off.',
        )}
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save settings'}
      </Button>
    </form>
  );
}
