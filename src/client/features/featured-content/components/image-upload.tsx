import ImageIcon from 'lucide-react/icons/image';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useRef } from 'react';
import { ACCEPTED_IMAGE_TYPES } from '../../../../common/featured-content';
import { toast } from '../../../components/ui/use-toast';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { useUploadImage } from '../api/manage-content';
import { imageFileProblem } from './image-check';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

/**
 * SPEC.md sections 2, 5 and 8: the image upload control, its checks and its messages. What the item will show
 * is the preview or 'No image', never a file picker's own "file chosen" (the picker is emptied after each pick).
 */
export function ImageUpload({
  scope,
  value,
  onChange,
}: {
  /** The form this upload belongs to (it waits for the upload). */
  scope: string;
  value: string | null;
  onChange: (imageUrl: string | null) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadImage(scope);

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = imageFileProblem(file);
    if (problem) {
      toast({ variant: 'destructive', title: problem.title, description: problem.message });
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ imageUrl }) => {
        onChange(imageUrl);
        notifySuccess('Image uploaded successfully!');
      },
      onError: (error) => notifyFailure('Upload failed', error, 'Failed to upload image'),
    });
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>Image</Label>
      <input
        id={inputId}
        ref={input}
        type="file"
        hidden
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        disabled={upload.isPending}
        onChange={(event) => choose(event.target.files?.[0])}
      />
      <div className="flex flex-wrap items-center gap-3">
        {value ? (
          <img
            src={value}
            alt="Uploaded image preview"
            className="h-16 w-16 rounded-md border border-slate-200 object-cover"
          />
        ) : (
          <p className="text-sm text-slate-600">No image</p>
        )}
        <Button
          variant="outline"
          size="sm"
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          <ImageIcon aria-hidden="true" />
          {value ? 'Replace image' : 'Choose image'}
        </Button>
        {value && (
          <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
            <Trash2 aria-hidden="true" />
            Remove image
          </Button>
        )}
      </div>
      {upload.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Uploading image...
        </p>
      ) : (
        <p className="text-xs text-slate-500">JPEG, PNG, GIF or WebP, up to 5MB</p>
      )}
    </div>
  );
}
