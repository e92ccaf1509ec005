import ImageIcon from 'lucide-react/icons/image';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Music from 'lucide-react/icons/music';
import Pencil from 'lucide-react/icons/pencil';
import Play from 'lucide-react/icons/play';
import Send from 'lucide-react/icons/send';
import Trash2 from 'lucide-react/icons/trash-2';
import { useRef, useState } from 'react';
import { MEDIA_KIND_LABELS, type MediaItem } from '../../../../common/library';
import { isSpeechKind } from '../../../../common/speech';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { notifySuccess } from '../../../lib/notify';
import { TranscriptButton } from '../../transcripts';
import { useDeleteMedia, useMediaPreview, usePublishMedia, useUploadArtwork } from '../api';
import { formatDuration, formatLoudness, formatSampleRate } from '../format';
import { whyRefused } from '../refusal';
import { MediaEditForm } from './media-edit-form';

const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/** One library item: its tags, what analysis measured, and preview, edit, artwork and delete. */
export function MediaRow({ item }: { item: MediaItem }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const artworkInput = useRef<HTMLInputElement>(null);
  const remove = useDeleteMedia();
  const preview = useMediaPreview();
  const artwork = useUploadArtwork();
  const publish = usePublishMedia();

  const startPreview = () => {
    setProblem(null);
    preview.mutate(item.id, {
      onSuccess: ({ url }) => setPreviewUrl(url),
      onError: (error) => setProblem(whyRefused(error, 'The preview could not be started.')),
    });
  };

  const sendArtwork = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    artwork.mutate(
      { id: item.id, file },
      {
        onSuccess: () => notifySuccess('Artwork saved', item.title),
        onError: (error) => setProblem(whyRefused(error, 'The artwork was not saved.')),
      },
    );
  };

  const sendPublish = () => {
    setProblem(null);
    publish.mutate(item.id, {
      onSuccess: ({ featured }) =>
        notifySuccess(
          'Published as a featured sermon',
          `"${featured.title}" is on the home page and the podcast.`,
        ),
      onError: (error) => setProblem(whyRefused(error, 'The recording was not published.')),
    });
  };

  const confirmDelete = () => {
    setProblem(null);
    remove.mutate(item.id, {
      onSuccess: () => notifySuccess('Deleted from the library', item.title),
      onError: (error) => setProblem(whyRefused(error, 'The item was not deleted.')),
    });
  };

  if (editing) {
    return (
      <li className="rounded-lg border border-slate-200 p-4" data-testid="media-row">
        <MediaEditForm item={item} onDone={() => setEditing(false)} />
      </li>
    );
  }

  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="media-row">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        {item.artwork_url ? (
          <img
            src={item.artwork_url}
            alt={`Artwork for ${item.title}`}
            className="h-16 w-16 shrink-0 rounded-md object-cover"
            loading="lazy"
          />
        ) : (
          <div className="flex h-16 w-16 shrink-0 items-center justify-center rounded-md bg-slate-100">
            <Music className="h-6 w-6 text-slate-400" aria-hidden="true" />
          </div>
        )}
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h4 className="font-semibold text-slate-900">{item.title}</h4>
            <Badge variant="gold">{MEDIA_KIND_LABELS[item.kind]}</Badge>
            {item.draft && (
              <Badge
                variant="outline"
                title="Recorded live from the air; it airs and is heard once published"
              >
                Draft
              </Badge>
            )}
          </div>
          <p className="text-sm text-slate-700">
            <span className="sr-only">Artist: </span>
            {item.artist || 'Unknown artist'}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, album: </span>
            {item.album || 'No album'}
          </p>
          <Measures item={item} />
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {item.draft && (
            <Button
              size="sm"
              onClick={sendPublish}
              disabled={publish.isPending || item.status !== 'ready'}
              aria-label={`Publish ${item.title}`}
            >
              <Send aria-hidden="true" />
              {publish.isPending ? 'Publishing…' : 'Publish'}
            </Button>
          )}
          <Button
            variant="outline"
            size="sm"
            onClick={startPreview}
            disabled={preview.isPending}
            aria-label={`Preview ${item.title}`}
          >
            <Play aria-hidden="true" />
            Preview
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setEditing(true)}
            aria-label={`Edit ${item.title}`}
          >
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          {/* Sermons, devotions and announcements get a transcript staff can correct. */}
          {isSpeechKind(item.kind) && <TranscriptButton mediaId={item.id} title={item.title} />}
          <Button
            variant="outline"
            size="sm"
            onClick={() => artworkInput.current?.click()}
            disabled={artwork.isPending}
            aria-label={`Upload artwork for ${item.title}`}
          >
            <ImageIcon aria-hidden="true" />
            {artwork.isPending ? 'Uploading…' : 'Artwork'}
          </Button>
          <input
            ref={artworkInput}
            type="file"
            accept={IMAGE_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-label={`Artwork image for ${item.title}`}
            onChange={(event) => {
              sendArtwork(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
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
      {previewUrl && (
        <audio
          controls
          autoPlay
          src={previewUrl}
          className="mt-3 h-10 w-full"
          aria-label={`Preview of ${item.title}`}
          onError={() => setProblem('The preview could not be played. Try Preview again.')}
        />
      )}
      {problem && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete from the library?"
        description={`"${item.title}" will be removed from the library and no longer played.`}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </li>
  );
}

/** Duration, measured loudness and the file it came from; 'Analysing…' until measured, or why it failed. */
function Measures({ item }: { item: MediaItem }) {
  const facts = [
    item.original_name,
    item.format.toUpperCase(),
    item.sample_rate ? formatSampleRate(item.sample_rate) : null,
    item.channels === 1 ? 'mono' : item.channels === 2 ? 'stereo' : null,
  ].filter(Boolean);
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
      {item.duration_seconds !== null && (
        <span>
          <span className="sr-only">Duration </span>
          {formatDuration(item.duration_seconds)}
        </span>
      )}
      {item.status === 'analysing' && (
        <span className="flex items-center gap-1 text-blue-900">
          <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
          Analysing…
        </span>
      )}
      {item.status === 'ready' && item.loudness_lufs !== null && (
        <span title="Measured loudness (EBU R128)">{formatLoudness(item.loudness_lufs)}</span>
      )}
      {item.status === 'failed' && (
        <span className="text-red-700">{`Analysis failed: ${item.error ?? 'the file could not be read'}`}</span>
      )}
      {facts.length > 0 && <span className="text-slate-500">{facts.join(' · ')}</span>}
    </p>
  );
}
