import Music from 'lucide-react/icons/music';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useRef, useState } from 'react';
import { formatDuration } from '../../../../common/duration';
import { MAX_AUDIO_UPLOAD_BYTES, type UploadAudioResponse } from '../../../../common/featured-content';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/use-toast';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { useUploadAudio } from '../api/manage-content';

/** A sermon's recording: MP3 or M4A, sent with a progress bar; the server checks what it really is. */
export function AudioUpload({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (uploaded: UploadAudioResponse | null) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadAudio(setProgress);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_AUDIO_UPLOAD_BYTES) {
      toast({
        variant: 'destructive',
        title: 'File too large',
        description: 'Please upload an audio file smaller than 200MB',
      });
      if (input.current) input.current.value = '';
      return;
    }
    setProgress(0);
    upload.mutate(file, {
      onSuccess: (uploaded) => {
        onChange(uploaded);
        notifySuccess('Audio uploaded successfully!', `${formatDuration(uploaded.durationSeconds)} of audio`);
      },
      onError: (error) => {
        if (input.current) input.current.value = '';
        notifyFailure('Upload failed', error, 'Failed to upload audio');
      },
    });
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>Sermon audio</Label>
      <Input
        id={inputId}
        ref={input}
        type="file"
        accept="audio/mpeg,audio/mp4,audio/x-m4a,.mp3,.m4a"
        disabled={upload.isPending}
        onChange={(event) => choose(event.target.files?.[0])}
        className="cursor-pointer"
      />
      {upload.isPending && (
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
      )}
      {value ? (
        <div className="flex items-center gap-3">
          <audio
            controls
            preload="none"
            src={value}
            className="h-10 max-w-full"
            aria-label="Uploaded audio"
          />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onChange(null);
              if (input.current) input.current.value = '';
            }}
          >
            <Trash2 aria-hidden="true" />
            Remove audio
          </Button>
        </div>
      ) : (
        <p className="flex items-center gap-1 text-xs text-slate-500">
          <Music className="h-3 w-3" aria-hidden="true" />
          MP3 or M4A, up to 200MB; played on demand and listed in the podcast
        </p>
      )}
    </div>
  );
}
