import { useState, type FormEvent } from 'react';
import {
  MEDIA_KIND_LABELS,
  MEDIA_KINDS,
  mediaBulkUpdateSchema,
  type MediaItem,
  type MediaKind,
} from '../../../../common/library';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { countOf } from '../../../components/card-heading';
import { notifySuccess } from '../../../lib/notify';
import { useBulkUpdateMedia } from '../api';
import { whyRefused } from '../refusal';
import { SELECT_CLASS } from './select-class';

const FIELDS = [
  { name: 'artist', label: 'Artist' },
  { name: 'album', label: 'Album' },
  { name: 'label', label: 'Label' },
  { name: 'composer', label: 'Composer / songwriters' },
] as const;
type Field = (typeof FIELDS)[number]['name'];

/**
 * The same artist, album, label, songwriters or kind on every item shown (search an album, then set its
 * label once). A field left empty is left as it is.
 */
export function BulkEditForm({ items, onDone }: { items: MediaItem[]; onDone: () => void }) {
  const bulk = useBulkUpdateMedia();
  const [values, setValues] = useState<Record<Field, string>>({
    artist: '',
    album: '',
    label: '',
    composer: '',
  });
  const [kind, setKind] = useState<MediaKind | ''>('');
  const [refused, setRefused] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setRefused(null);
    const changes = Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
    const parsed = mediaBulkUpdateSchema.safeParse({
      ids: items.map((item) => item.id),
      changes: { ...changes, ...(kind ? { kind } : {}) },
    });
    if (!parsed.success) return setRefused(parsed.error.issues[0]?.message ?? 'Say what to change');
    bulk.mutate(parsed.data, {
      onSuccess: ({ updated }) => {
        notifySuccess('Library items saved', countOf(updated, 'item'));
        onDone();
      },
      onError: (error) => setRefused(whyRefused(error, 'The changes were not saved.')),
    });
  };

  return (
    <form
      onSubmit={save}
      noValidate
      className="space-y-3 rounded-md border border-slate-200 p-4"
      aria-label="Change every item shown"
    >
      <p className="text-sm text-slate-600">
        {`Set on the ${countOf(items.length, 'item')} shown; fields left empty stay as they are.`}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(({ name, label }) => (
          <div key={name} className="space-y-1">
            <Label htmlFor={`bulk-${name}`}>{label}</Label>
            <Input
              id={`bulk-${name}`}
              value={values[name]}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
            />
          </div>
        ))}
        <div className="space-y-1">
          <Label htmlFor="bulk-kind">Kind</Label>
          <select
            id="bulk-kind"
            className={SELECT_CLASS}
            value={kind}
            onChange={(event) => setKind(event.target.value as MediaKind | '')}
          >
            <option value="">Unchanged</option>
            {MEDIA_KINDS.map((k) => (
              <option key={k} value={k}>
                {MEDIA_KIND_LABELS[k]}
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
        <Button type="submit" size="sm" disabled={bulk.isPending}>
          {bulk.isPending ? 'Saving...' : `Save on ${countOf(items.length, 'item')}`}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
