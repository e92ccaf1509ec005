import { zodResolver } from '@hookform/resolvers/zod';
import Plus from 'lucide-react/icons/plus';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { featuredContentBodySchema } from '../../../../common/featured-content';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { useAddContent } from '../api/manage-content';
import { ContentTypeSelect } from './content-type-select';
import { FieldError } from '../../../components/form/field-error';
import { formatDuration } from '../../../../common/duration';
import { AudioUpload } from './audio-upload';
import { ImageUpload } from './image-upload';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

type FormInput = z.input<typeof featuredContentBodySchema>;
type FormOutput = z.output<typeof featuredContentBodySchema>;

const EMPTY: FormInput = { title: '', description: '', type: 'sermon', imageUrl: null, audioUrl: null };

/** SPEC.md sections 2 and 5: add featured content; proceeds only with a title and a description. */
export function AddContentForm() {
  const add = useAddContent();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(featuredContentBodySchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((body) =>
    add.mutate(body, {
      onSuccess: () => {
        notifySuccess('Content added successfully');
        form.reset(EMPTY);
      },
      onError: (error) => notifyFailure('Failed to add content', error),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add featured content">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="new-content-title">Title</Label>
          <Input
            id="new-content-title"
            required
            aria-invalid={Boolean(errors.title)}
            aria-describedby="new-content-title-error"
            {...form.register('title')}
          />
          <FieldError id="new-content-title-error" message={errors.title?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="new-content-type">Type</Label>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <ContentTypeSelect id="new-content-type" value={field.value} onChange={field.onChange} />
            )}
          />
          <FieldError id="new-content-type-error" message={errors.type?.message} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="new-content-description">Description</Label>
        <Textarea
          id="new-content-description"
          rows={3}
          aria-invalid={Boolean(errors.description)}
          aria-describedby="new-content-description-error"
          {...form.register('description')}
        />
        <FieldError id="new-content-description-error" message={errors.description?.message} />
      </div>
      <Controller
        control={form.control}
        name="imageUrl"
        render={({ field }) => <ImageUpload value={field.value ?? null} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="audioUrl"
        render={({ field }) => (
          <AudioUpload
            value={field.value ?? null}
            onChange={(uploaded) => {
              field.onChange(uploaded?.audioUrl ?? null);
              form.setValue('duration', uploaded ? formatDuration(uploaded.durationSeconds) : undefined);
            }}
          />
        )}
      />
      <Button type="submit" disabled={add.isPending}>
        <Plus aria-hidden="true" />
        {add.isPending ? 'Adding...' : 'Add Content'}
      </Button>
    </form>
  );
}
