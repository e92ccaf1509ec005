import FileText from 'lucide-react/icons/file-text';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { transcriptVttPath, type Transcript } from '../../../../common/speech';
import { ConfirmDialog } from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { serverMessage } from '../../../lib/api-request';
import { transcriptQuery, useTranscribeAgain } from '../api';
import { TranscriptLines } from './transcript-lines';

/** A speech item's "Transcript" button and the screen it opens. */
export function TranscriptButton({ mediaId, title }: { mediaId: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`Transcript of ${title}`}>
        <FileText aria-hidden="true" />
        Transcript
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>Transcript: {title}</DialogTitle>
            <DialogDescription>
              What the station recognised in this recording, line by line. Correct any words and save: the
              sermon&apos;s transcript and the podcast show your corrections.
            </DialogDescription>
          </DialogHeader>
          <TranscriptScreen mediaId={mediaId} title={title} />
        </DialogContent>
      </Dialog>
    </>
  );
}

/** Where the transcript is: waiting, in progress, done or failed (and why). */
function stateOf(transcript: Transcript | null): { label: string; detail: string } {
  if (transcript === null || transcript.status === 'waiting') {
    return {
      label: 'Waiting',
      detail:
        'No transcript yet. Sermons, devotions and announcements are transcribed in the background, one at a time, while automatic captions are on (Captions tab).',
    };
  }
  const engine = transcript.engine ? ` by ${transcript.engine}` : '';
  if (transcript.status === 'working') {
    return { label: 'In progress', detail: `The recording is being transcribed${engine}.` };
  }
  if (transcript.status === 'failed') {
    return { label: 'Failed', detail: transcript.error ?? 'The recording could not be transcribed.' };
  }
  return {
    label: 'Done',
    detail: transcript.edited ? `Transcribed${engine}, corrected by staff.` : `Transcribed${engine}.`,
  };
}

export function TranscriptScreen({ mediaId, title }: { mediaId: string; title: string }) {
  const transcript = useQuery(transcriptQuery(mediaId));
  const again = useTranscribeAgain(mediaId);
  const [confirming, setConfirming] = useState(false);

  if (transcript.isPending) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading…
      </p>
    );
  }
  if (transcript.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {serverMessage(transcript.error) ?? 'The transcript could not be read. Please try again.'}
      </p>
    );
  }
  const data = transcript.data;
  const state = stateOf(data);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p role="status" data-testid="transcript-state" className="text-sm text-slate-700">
          <span className="font-semibold text-slate-900">{state.label}: </span>
          {state.detail}
        </p>
        {data && data.status !== 'working' && (
          <Button
            variant="outline"
            size="sm"
            disabled={again.isPending}
            onClick={() => (data.edited ? setConfirming(true) : again.mutate())}
          >
            <RotateCcw aria-hidden="true" />
            Transcribe again
          </Button>
        )}
      </div>
      {again.isError && (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(again.error) ?? 'The recording could not be queued again. Please try again.'}
        </p>
      )}
      {data?.status === 'ready' && (
        <>
          <TranscriptLines mediaId={mediaId} title={title} transcript={data} />
          <p className="text-sm">
            <a
              href={transcriptVttPath(mediaId)}
              target="_blank"
              rel="noreferrer"
              className="font-medium text-blue-800 underline underline-offset-2"
            >
              Open the captions file (WebVTT) that players and podcast apps read
            </a>
          </p>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Transcribe again?"
        description={`The corrections made to "${title}" will be replaced by a new transcript from the recording.`}
        confirmLabel="Transcribe again"
        destructive
        onConfirm={() => again.mutate()}
      />
    </div>
  );
}
