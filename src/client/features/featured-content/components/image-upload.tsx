import ImageIcon from 'lucide-react/icons/image';
import { ACCEPTED_IMAGE_TYPES } from '../../../../common/featured-content';
import { toast } from '../../../components/ui/use-toast';
import { useUploadImage } from '../api/manage-content';
import { imageFileProblem } from './image-check';
import { StoredFileField } from './stored-file-field';
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
  const upload = useUploadImage(scope);

  const choose = (file: File | undefined) => {
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
    <StoredFileField
      label="Image"
      noun="image"
      Icon={ImageIcon}
      accept={ACCEPTED_IMAGE_TYPES.join(',')}
      pending={upload.isPending}
      preview={
        value ? (
          <img
            src={value}
            alt="Uploaded image preview"
            className="h-16 w-16 rounded-md border border-slate-200 object-cover"
          />
        ) : null
      }
      onPick={choose}
      onRemove={() => onChange(null)}
    >
      {upload.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Uploading image...
        </p>
      ) : (
        <p className="text-xs text-slate-500">JPEG, PNG, GIF or WebP, up to 5MB</p>
      )}
    </StoredFileField>
  );
}
