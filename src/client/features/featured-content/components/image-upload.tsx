import ImageIcon from 'lucide-react/icons/image';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useRef } from 'react';
import { ACCEPTED_IMAGE_TYPES } from '../../../../common/featured-content';
import { toast } from '../../../components/ui/use-toast';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useUploadImage } from '../api/manage-content';
import { imageFileProblem } from './image-check';
import { notifyFailure, notifySuccess } from '../../../lib/notify';

/** SPEC.md sections 2, 5 and 8: the image upload control, its checks and its messages. */
export function ImageUpload({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (imageUrl: string | null) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadImage();

  const clearPicker = () => {
    if (input.current) input.current.value = '';
  };

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = imageFileProblem(file);
    if (problem) {
      toast({ variant: 'destructive', title: problem.title, description: problem.message });
      clearPicker();
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ imageUrl }) => {
        onChange(imageUrl);
        notifySuccess('Image uploaded successfully!');
      },
      onError: (error) => {
        clearPicker();
        notifyFailure('Upload failed', error, 'Failed to upload image');
      },
    });
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>Image</Label>
      <Input
        id={inputId}
        ref={input}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        disabled={upload.isPending}
        onChange={(event) => choose(event.target.files?.[0])}
        className="cursor-pointer"
      />
      {upload.isPending && (
        <p role="status" className="text-sm text-slate-600">
          Uploading image...
        </p>
      )}
      {value ? (
        <div className="flex items-center gap-3">
          <img
            src={value}
            alt="Uploaded image preview"
            className="h-16 w-16 rounded-md border border-slate-200 object-cover"
          />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onChange(null);
              clearPicker();
            }}
          >
            <Trash2 aria-hidden="true" />
            Remove image
          </Button>
        </div>
      ) : (
        <p className="flex items-center gap-1 text-xs text-slate-500">
          <ImageIcon className="h-3 w-3" aria-hidden="true" />
          JPEG, PNG, GIF or WebP, up to 5MB
        </p>
      )}
    </div>
  );
}
