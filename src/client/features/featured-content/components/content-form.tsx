import { zodResolver } from '@hookform/resolvers/zod';
import Plus from 'lucide-react/icons/plus';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatDuration } from '../../../../common/duration';
import {
  CONTENT_TYPES,
  featuredContentBodySchema,
  type ContentType,
  type FeaturedItem,
} from '../../../../common/featured-content';
import { FieldError } from '../../../components/form/field-error';
import { FormField } from '../../../components/form/form-field';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useAddContent, useUpdateContent, useUploading } from '../api/manage-content';
import { AudioUpload } from './audio-upload';
import { ContentTypeSelect } from './content-type-select';
import { ImageUpload } from './image-upload';

type FormInput = z.input<typeof featuredContentBodySchema>;
type FormOutput = z.output<typeof featuredContentBodySchema>;

const EMPTY: FormInput = {
  title: '',
  type: 'sermon',
  speaker: '',
  duration: '',
  description: '',
  imageUrl: null,
  audioUrl: null,
};

const asContentType = (type: string): ContentType =>
  (CONTENT_TYPES as readonly string[]).includes(type) ? (type as ContentType) : 'devotion';

const valuesOf = (item: FeaturedItem): FormInput => ({
  title: item.title,
  type: asContentType(item.type),
  speaker: item.speaker ?? '',
  duration: item.duration ?? '',
  description: item.description,
  imageUrl: item.imageUrl ?? null,
  audioUrl: item.audioUrl ?? null,
});

/**
 * The Content tab's one form, every field: empty to add an item (SPEC.md section 5: only with a title and a
 * description; cleared after the add, files too), or an item's to edit it in place, then save or cancel.
 */
export function ContentForm({ item, onClose }: { item?: FeaturedItem; onClose?: () => void }) {
  const id = useId();
  const add = useAddContent();
  const update = useUpdateContent();
  const uploading = useUploading(id);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(featuredContentBodySchema),
    defaultValues: item ? valuesOf(item) : EMPTY,
  });
  const { errors } = form.formState;
  const pending = add.isPending || update.isPending;

  const submit = form.handleSubmit((body) => {
    if (!item)
      return add.mutate(body, {
        onSuccess: () => {
          notifySuccess('Content added successfully');
          form.reset(EMPTY);
        },
        onError: (error) => notifyFailure('Failed to add content', error),
      });
    update.mutate(
      { id: item.id, body },
      {
        onSuccess: () => {
          notifySuccess('Content updated successfully');
          onClose?.();
        },
        onError: (error) => notifyFailure('Failed to update content', error),
      },
    );
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4"
      aria-label={item ? `Edit ${item.title}` : 'Add featured content'}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={`${id}-title`}>Title</Label>
          <Input
            id={`${id}-title`}
            required
            aria-invalid={Boolean(errors.title)}
            aria-describedby={`${id}-title-error`}
            {...form.register('title')}
          />
          <FieldError id={`${id}-title-error`} message={errors.title?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <ContentTypeSelect id={`${id}-type`} value={field.value} onChange={field.onChange} />
            )}
          />
          <FieldError id={`${id}-type-error`} message={errors.type?.message} />
        </div>
        <FormField
          id={`${id}-speaker`}
          label="Speaker"
          error={errors.speaker?.message}
          registration={form.register('speaker')}
        />
        <div className="space-y-2">
          <Label htmlFor={`${id}-duration`}>Duration</Label>
          <Input
            id={`${id}-duration`}
            aria-invalid={Boolean(errors.duration)}
            aria-describedby={`${id}-duration-hint ${id}-duration-error`}
            {...form.register('duration')}
          />
          <p id={`${id}-duration-hint`} className="text-xs text-slate-500">
            Taken from the audio when one is uploaded, such as 45:00
          </p>
          <FieldError id={`${id}-duration-error`} message={errors.duration?.message} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-description`}>Description</Label>
        <Textarea
          id={`${id}-description`}
          rows={3}
          aria-invalid={Boolean(errors.description)}
          aria-describedby={`${id}-description-error`}
          {...form.register('description')}
        />
        <FieldError id={`${id}-description-error`} message={errors.description?.message} />
      </div>
      <Controller
        control={form.control}
        name="imageUrl"
        render={({ field }) => (
          <ImageUpload scope={id} value={field.value ?? null} onChange={field.onChange} />
        )}
      />
      <Controller
        control={form.control}
        name="audioUrl"
        render={({ field }) => (
          <AudioUpload
            scope={id}
            value={field.value ?? null}
            onChange={(uploaded) => {
              field.onChange(uploaded?.audioUrl ?? null);
              // A new recording brings its length; removing one leaves what the field says to staff.
              if (uploaded) form.setValue('duration', formatDuration(uploaded.durationSeconds));
            }}
          />
        )}
      />
      {item ? (
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={pending || uploading}>
            {pending ? 'Saving...' : 'Save'}
          </Button>
          <Button variant="outline" size="sm" onClick={onClose}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button type="submit" disabled={pending || uploading}>
          <Plus aria-hidden="true" />
          {pending ? 'Adding...' : 'Add Content'}
        </Button>
      )}
    </form>
  );
}
