import { zodResolver } from '@hookform/resolvers/zod';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  CONTENT_TYPES,
  featuredContentBodySchema,
  type ContentType,
  type FeaturedItem,
} from '../../../../common/featured-content';
import { SampleBadge } from '../../../components/sample-badge';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { useDeleteContent, useUpdateContent } from '../api/manage-content';
import { contentTypeLabel, ContentTypeSelect } from './content-type-select';
import { FieldError } from '../../../components/form/field-error';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

/** SPEC.md section 4, content row: only title, type and description are edited in place. */
const editSchema = featuredContentBodySchema.pick({ title: true, type: true, description: true });
type EditInput = z.input<typeof editSchema>;
type EditOutput = z.output<typeof editSchema>;

export const DELETE_CONTENT_QUESTION = 'Are you sure you want to delete this content?';

const asContentType = (type: string): ContentType =>
  (CONTENT_TYPES as readonly string[]).includes(type) ? (type as ContentType) : 'devotion';

/** One featured item: view, then edit in place, then save or cancel; delete after the confirmation. */
export function ContentRow({ item }: { item: FeaturedItem }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateContent();
  const remove = useDeleteContent();
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(editSchema),
    values: { title: item.title, type: asContentType(item.type), description: item.description },
  });
  const { errors } = form.formState;
  const idBase = `content-${item.id}`;

  // SPEC.md section 7: the edit sends title, type, description and the unchanged image and audio.
  const save = form.handleSubmit((fields) =>
    update.mutate(
      { id: item.id, body: { ...fields, imageUrl: item.imageUrl ?? null, audioUrl: item.audioUrl ?? null } },
      {
        onSuccess: () => {
          notifySuccess('Content updated successfully');
          setEditing(false);
        },
        onError: (error) => notifyFailure('Failed to update content', error),
      },
    ),
  );

  const cancel = () => {
    form.reset();
    setEditing(false);
  };

  const confirmDelete = () =>
    remove.mutate(item.id, {
      onSuccess: () => notifySuccess('Content deleted successfully'),
      onError: (error) => notifyFailure('Failed to delete content', error),
    });

  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="content-row">
      {editing ? (
        <form onSubmit={save} noValidate className="space-y-3" aria-label={`Edit ${item.title}`}>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor={`${idBase}-title`}>Title</Label>
              <Input
                id={`${idBase}-title`}
                required
                aria-invalid={Boolean(errors.title)}
                {...form.register('title')}
              />
              <FieldError id={`${idBase}-title-error`} message={errors.title?.message} />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${idBase}-type`}>Type</Label>
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <ContentTypeSelect id={`${idBase}-type`} value={field.value} onChange={field.onChange} />
                )}
              />
            </div>
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${idBase}-description`}>Description</Label>
            <Textarea
              id={`${idBase}-description`}
              rows={3}
              aria-invalid={Boolean(errors.description)}
              {...form.register('description')}
            />
            <FieldError id={`${idBase}-description-error`} message={errors.description?.message} />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button variant="outline" size="sm" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          {item.imageUrl && (
            <img
              src={item.imageUrl}
              alt=""
              className="h-20 w-full rounded-md object-cover sm:w-28"
              loading="lazy"
            />
          )}
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="font-semibold text-slate-900">{item.title}</h4>
              <Badge variant="gold">{contentTypeLabel(item.type)}</Badge>
              {item.sample && <SampleBadge />}
            </div>
            <p className="mt-1 line-clamp-3 text-sm text-slate-600">{item.description}</p>
          </div>
          <div className="flex shrink-0 gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label={`Edit ${item.title}`}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              variant="destructive"
              size="sm"
              onClick={() => setConfirming(true)}
              disabled={remove.isPending}
              aria-label={`Delete ${item.title}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete content"
        description={DELETE_CONTENT_QUESTION}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </li>
  );
}
