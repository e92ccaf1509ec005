import Music from 'lucide-react/icons/music';
import { useState } from 'react';
import { formatDuration } from '../../../../common/duration';
import {
  AUDIO_TOO_LARGE,
  MAX_AUDIO_UPLOAD_BYTES,
  type UploadAudioResponse,
} from '../../../../common/featured-content';
import { toast } from '../../../components/ui/use-toast';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useUploadAudio } from '../api/manage-content';
import { StoredFileField } from './stored-file-field';

/**
 * A sermon's recording: MP3 or M4A, sent with a progress bar; the server checks what it really is. What the
 * item will play is the player or 'No audio', never a file picker's own "file chosen".
 */
export function AudioUpload({
  scope,
  value,
  onChange,
}: {
  /** The form this upload belongs to (it waits for the upload). */
  scope: string;
  value: string | null;
  onChange: (uploaded: UploadAudioResponse | null) => void;
}) {
  const [progress, setProgress] = useState(0);
  const upload = useUploadAudio(scope, setProgress);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_AUDIO_UPLOAD_BYTES) {
      toast({ variant: 'destructive', title: 'File too large', description: AUDIO_TOO_LARGE });
      return;
    }
    setProgress(0);
    upload.mutate(file, {
      onSuccess: (uploaded) => {
        onChange(uploaded);
        notifySuccess('Audio uploaded successfully!', `${formatDuration(uploaded.durationSeconds)} of audio`);
      },
      onError: (error) => notifyFailure('Upload failed', error, 'Failed to upload audio'),
    });
  };

  return (
    <StoredFileField
      label="Sermon audio"
      noun="audio"
      Icon={Music}
      accept="audio/mpeg,audio/mp4,audio/x-m4a,.mp3,.m4a"
      pending={upload.isPending}
      preview={
        value ? (
          <audio
            controls
            preload="none"
            src={value}
            className="h-10 max-w-full"
            aria-label="Uploaded audio"
          />
        ) : null
      }
      onPick={choose}
      onRemove={() => onChange(null)}
    >
      {upload.isPending ? (
        <div className="space-y-1">
          <progress
            className="h-2 w-full accent-blue-800"
            max={1}
            value={progress}
            aria-label="Audio upload progress"
          />
          <p role="status" className="text-sm text-slate-600">
            Uploading audio... {Math.round(progress * 100)}%
          </p>
        </div>
      ) : (
        <p className="text-xs text-slate-500">
          MP3 or M4A, up to 200MB; played on demand and listed in the podcast
        </p>
      )}
    </StoredFileField>
  );
}
