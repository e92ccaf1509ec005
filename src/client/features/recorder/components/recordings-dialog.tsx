import Download from 'lucide-react/icons/download';
import Share2 from 'lucide-react/icons/share-2';
import Trash2 from 'lucide-react/icons/trash-2';
import { RECENT_BROADCAST_SECONDS } from '../../../../common/clip-limits';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';

export interface ListedClip {
  id: string;
  title: string;
  description: string;
  duration: number;
  timestamp: string;
  /** Playable address: an object url (recorded here) or the server clip's audio. */
  url: string;
  /** Server clips have a page to share. */
  shareUrl?: string;
}

const formatDuration = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** The session-only list of recordings, newest first. */
export function RecordingsDialog({
  open,
  onOpenChange,
  clips,
  onDownload,
  onShare,
  sharingId,
  onDelete,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clips: ListedClip[];
  onDownload: (clip: ListedClip) => void;
  onShare: (clip: ListedClip) => void;
  /** The clip whose share is being made (the station cuts a recording's moment first). */
  sharingId?: string | null;
  onDelete: (clip: ListedClip) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Your Recordings</DialogTitle>
          <DialogDescription>
            Recordings stay in this browser tab until you close it. Download the ones you want to keep. Share
            sends a link to the station&apos;s own copy of that moment: share within{' '}
            {RECENT_BROADCAST_SECONDS / 60} minutes of recording, while the station still keeps it.
          </DialogDescription>
        </DialogHeader>
        {clips.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">
            No recordings yet. Record a live moment while the radio plays.
          </p>
        ) : (
          <ul className="space-y-4" aria-label="Recordings">
            {clips.map((clip) => (
              <li key={clip.id} className="rounded-lg border border-slate-200 p-4" data-testid="recording">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h3 className="font-semibold text-blue-950">{clip.title}</h3>
                  <span className="text-xs text-slate-500">
                    {formatDuration(clip.duration)} · {new Date(clip.timestamp).toLocaleTimeString()}
                  </span>
                </div>
                {clip.description && <p className="mt-1 text-sm text-slate-600">{clip.description}</p>}
                <audio controls preload="metadata" src={clip.url} className="mt-3 w-full" />
                <div className="mt-3 flex flex-wrap gap-2">
                  <Button size="sm" variant="outline" onClick={() => onDownload(clip)}>
                    <Download aria-hidden="true" />
                    Download
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={sharingId === clip.id}
                    onClick={() => onShare(clip)}
                  >
                    <Share2 aria-hidden="true" />
                    Share
                  </Button>
                  <Button size="sm" variant="ghost" className="text-red-700" onClick={() => onDelete(clip)}>
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
