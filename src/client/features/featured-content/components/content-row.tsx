import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import type { FeaturedItem } from '../../../../common/featured-content';
import { transcriptMediaId } from '../../../../common/speech';
import { SampleBadge } from '../../../components/sample-badge';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useDeleteContent } from '../api/manage-content';
import { ContentForm } from './content-form';
import { contentTypeLabel } from './content-type-select';
import { notifyFailure, notifySuccess } from '../../../lib/notify';
import { TranscriptButton } from '../../transcripts';

export const DELETE_CONTENT_QUESTION = 'Are you sure you want to delete this content?';

/**
 * One featured item: view, then edit in place (the add form, every field), then save or cancel; delete after
 * the confirmation.
 */
export function ContentRow({ item }: { item: FeaturedItem }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteContent();
  /** Its audio's finished transcript, which staff can correct here too. */
  const transcribed = item.transcriptUrl ? transcriptMediaId(item.transcriptUrl) : null;

  const confirmDelete = () =>
    remove.mutate(item.id, {
      onSuccess: () => notifySuccess('Content deleted successfully'),
      onError: (error) => notifyFailure('Failed to delete content', error),
    });

  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="content-row">
      {editing ? (
        <ContentForm item={item} onClose={() => setEditing(false)} />
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          {item.imageUrl && (
            <img
              src={item.imageUrl}
              alt=""
              className="h-20 w-full rounded-md object-cover sm:w-28"
              loading="lazy"
            />
          )}
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="font-semibold text-slate-900">{item.title}</h4>
              <Badge variant="gold">{contentTypeLabel(item.type)}</Badge>
              {item.sample && <SampleBadge />}
            </div>
            {(item.speaker || item.duration || item.audioUrl) && (
              <p className="mt-1 text-sm text-slate-700">
                {[item.speaker, item.duration, item.audioUrl && 'with audio'].filter(Boolean).join(' · ')}
              </p>
            )}
            <p className="mt-1 line-clamp-3 text-sm text-slate-600">{item.description}</p>
          </div>
          <div className="flex shrink-0 flex-wrap gap-2">
            {transcribed && <TranscriptButton mediaId={transcribed} title={item.title} />}
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              aria-label={`Edit ${item.title}`}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
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
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete content"
        description={DELETE_CONTENT_QUESTION}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </li>
  );
}
