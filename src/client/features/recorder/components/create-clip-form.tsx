import { useState, type FormEvent } from 'react';
import { CLIP_LENGTHS, DEFAULT_CLIP_LENGTH, type ClipLength } from '../../../../common/recorder';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';

export interface ClipRequest {
  title: string;
  description: string;
  seconds: ClipLength;
}

/**
 * The create-clip form: title (marked required, but an empty one gets the default title), an optional
 * description, and the length (15, 30, 60 or 120 s; 30 by default).
 */
export function CreateClipForm({
  submitLabel,
  defaultTitle,
  busy,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  /** Used when the title is left empty; shown as the placeholder. */
  defaultTitle: string;
  busy?: boolean;
  onSubmit: (request: ClipRequest) => void;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [seconds, setSeconds] = useState<ClipLength>(DEFAULT_CLIP_LENGTH);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ title, description, seconds });
  };
  return (
    <form onSubmit={submit} className="max-w-xl space-y-4" aria-label="Create clip">
      <div className="space-y-1.5">
        <Label htmlFor="clip-title">
          Clip title{' '}
          <span className="text-red-600" aria-hidden="true">
            *
          </span>
        </Label>
        <Input
          id="clip-title"
          value={title}
          aria-required="true"
          placeholder={defaultTitle}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="clip-description">Description (optional)</Label>
        <Textarea
          id="clip-description"
          rows={2}
          value={description}
          maxLength={1000}
          placeholder="What made this moment special?"
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="clip-length">Clip length</Label>
        <select
          id="clip-length"
          value={seconds}
          onChange={(e) => setSeconds(Number(e.target.value) as ClipLength)}
          className="flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
        >
          {CLIP_LENGTHS.map((s) => (
            <option key={s} value={s}>
              {s} seconds
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
