import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useRef, type ComponentType, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';

/**
 * The Content form's file field (image or audio): what the item holds now (`preview`, or 'No image'), a hidden
 * picker behind 'Choose'/'Replace', and 'Remove'. The picker is emptied after each pick, so a file picker's own
 * "file chosen" never says something the item does not hold.
 */
export function StoredFileField({
  label,
  noun,
  Icon,
  accept,
  pending,
  preview,
  onPick,
  onRemove,
  children,
}: {
  label: string;
  /** 'image' or 'audio': 'No image', 'Replace image', 'Remove image'. */
  noun: string;
  Icon: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  accept: string;
  /** An upload is under way: no second pick. */
  pending: boolean;
  /** What the item holds now; null when it holds nothing. */
  preview: ReactNode | null;
  onPick: (file: File | undefined) => void;
  onRemove: () => void;
  /** Below the row: the upload's progress or the field's hint. */
  children: ReactNode;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const pick = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    onPick(file);
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>{label}</Label>
      <input
        id={inputId}
        ref={input}
        type="file"
        hidden
        accept={accept}
        disabled={pending}
        onChange={(event) => pick(event.target.files?.[0])}
      />
      <div className="flex flex-wrap items-center gap-3">
        {preview ?? <p className="text-sm text-slate-600">No {noun}</p>}
        <Button variant="outline" size="sm" disabled={pending} onClick={() => input.current?.click()}>
          <Icon aria-hidden="true" />
          {preview ? `Replace ${noun}` : `Choose ${noun}`}
        </Button>
        {preview && (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            <Trash2 aria-hidden="true" />
            Remove {noun}
          </Button>
        )}
      </div>
      {children}
    </div>
  );
}
