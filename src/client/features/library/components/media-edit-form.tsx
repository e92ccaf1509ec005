import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  MEDIA_KIND_LABELS,
  MEDIA_KINDS,
  mediaUpdateSchema,
  type MediaItem,
} from '../../../../common/library';
import { FieldError } from '../../../components/form/field-error';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateMedia } from '../api';
import { whyRefused } from '../refusal';
import { SELECT_CLASS } from './select-class';

type EditInput = z.input<typeof mediaUpdateSchema>;
type EditOutput = z.output<typeof mediaUpdateSchema>;

const TEXT_FIELDS = [
  { name: 'title', label: 'Title' },
  { name: 'artist', label: 'Artist' },
  { name: 'album', label: 'Album' },
  // What music licences ask for (Reports tab): read from the file's tags where present.
  { name: 'isrc', label: 'ISRC' },
  { name: 'label', label: 'Label' },
  { name: 'composer', label: 'Composer / songwriters' },
  { name: 'ccli_song_number', label: 'CCLI song number' },
] as const;

/** Title, artist, album, licence fields and kind of one item, edited in place; the station's refusal shows in the form. */
export function MediaEditForm({ item, onDone }: { item: MediaItem; onDone: () => void }) {
  const update = useUpdateMedia();
  const [refused, setRefused] = useState<string | null>(null);
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(mediaUpdateSchema),
    defaultValues: {
      title: item.title,
      artist: item.artist,
      album: item.album,
      isrc: item.isrc,
      label: item.label,
      composer: item.composer,
      ccli_song_number: item.ccli_song_number,
      kind: item.kind,
    },
  });
  const { errors } = form.formState;
  const idBase = `media-${item.id}`;

  const save = form.handleSubmit((body) => {
    setRefused(null);
    update.mutate(
      { id: item.id, body },
      {
        onSuccess: (saved) => {
          notifySuccess('Library item saved', saved.title);
          onDone();
        },
        onError: (error) => setRefused(whyRefused(error, 'The changes were not saved.')),
      },
    );
  });

  return (
    <form onSubmit={save} noValidate className="space-y-3" aria-label={`Edit ${item.title}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        {TEXT_FIELDS.map(({ name, label }) => (
          <div key={name} className="space-y-1">
            <Label htmlFor={`${idBase}-${name}`}>{label}</Label>
            <Input
              id={`${idBase}-${name}`}
              required={name === 'title'}
              aria-invalid={Boolean(errors[name])}
              aria-describedby={`${idBase}-${name}-error`}
              {...form.register(name)}
            />
            <FieldError id={`${idBase}-${name}-error`} message={errors[name]?.message} />
          </div>
        ))}
        <div className="space-y-1">
          <Label htmlFor={`${idBase}-kind`}>Kind</Label>
          <select id={`${idBase}-kind`} className={SELECT_CLASS} {...form.register('kind')}>
            {MEDIA_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {MEDIA_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {refused && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {refused}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
