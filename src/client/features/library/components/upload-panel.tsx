import CheckCircle from 'lucide-react/icons/circle-check';
import Upload from 'lucide-react/icons/upload';
import XCircle from 'lucide-react/icons/circle-x';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { useInvalidateLibrary } from '../api';
import type { Upload as QueuedUpload, UploadQueue } from '../upload-queue';

/** What the file picker offers; anything else may still be dropped, and the station judges by content. */
const AUDIO_ACCEPT = 'audio/*,.mp3,.m4a,.aac,.wav,.flac,.ogg,.oga,.opus';

/** Drop or pick audio files; each is listed with its own progress and, when refused, the station's reason. */
export function UploadPanel({ queue }: { queue: UploadQueue }) {
  const uploads = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const invalidate = useInvalidateLibrary();
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  // Each file the station took in shows in the list (its loudness follows once analysed).
  useEffect(() => queue.onUploaded(() => void invalidate()), [queue, invalidate]);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    queue.add(event.dataTransfer.files);
  };
  const finished = uploads.some((u) => u.state === 'done' || u.state === 'failed');

  return (
    <div className="space-y-4">
      <div
        data-testid="library-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors',
          over ? 'border-amber-500 bg-amber-50' : 'border-slate-300 bg-slate-50',
        )}
      >
        <Upload className="h-8 w-8 text-blue-900" aria-hidden="true" />
        <p id={hintId} className="text-sm text-slate-600">
          Drop audio files here, or choose them: MP3, AAC/M4A, WAV, FLAC, Ogg Vorbis or Opus, any sample rate.
        </p>
        <label htmlFor={inputId} className="sr-only">
          Add audio files
        </label>
        <input
          id={inputId}
          ref={input}
          type="file"
          multiple
          accept={AUDIO_ACCEPT}
          aria-describedby={hintId}
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            if (event.target.files) queue.add(event.target.files);
            event.target.value = '';
          }}
        />
        <Button type="button" variant="outline" onClick={() => input.current?.click()}>
          Choose Audio Files
        </Button>
      </div>
      {uploads.length > 0 && (
        <div className="space-y-2">
          <ul className="space-y-2" aria-label="Uploads">
            {uploads.map((upload) => (
              <UploadRow key={upload.id} upload={upload} />
            ))}
          </ul>
          {finished && (
            <Button type="button" variant="ghost" size="sm" onClick={() => queue.clearFinished()}>
              Clear finished uploads
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

const STATE_TEXT: Record<QueuedUpload['state'], (u: QueuedUpload) => string> = {
  waiting: () => 'Waiting…',
  uploading: (u) => `${Math.round(u.progress * 100)}%`,
  done: () => 'Uploaded',
  failed: () => 'Refused',
};

function UploadRow({ upload }: { upload: QueuedUpload }) {
  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="upload-row">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="min-w-0 truncate font-medium text-slate-900">{upload.name}</span>
        <span
          className={cn(
            'flex shrink-0 items-center gap-1',
            upload.state === 'failed' ? 'text-red-700' : 'text-slate-600',
          )}
        >
          {upload.state === 'done' && <CheckCircle className="h-4 w-4 text-green-700" aria-hidden="true" />}
          {upload.state === 'failed' && <XCircle className="h-4 w-4" aria-hidden="true" />}
          {STATE_TEXT[upload.state](upload)}
        </span>
      </div>
      <progress
        className="mt-2 h-2 w-full accent-blue-800"
        max={1}
        value={upload.progress}
        aria-label={`Upload of ${upload.name}`}
      />
      {upload.error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {upload.error}
        </p>
      )}
    </li>
  );
}
