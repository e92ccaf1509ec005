import Circle from 'lucide-react/icons/circle';
import Disc3 from 'lucide-react/icons/disc-3';
import ListMusic from 'lucide-react/icons/list-music';
import Square from 'lucide-react/icons/square';
import Volume2 from 'lucide-react/icons/volume-2';
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  clipDescriptionOrDefault,
  clipFileName,
  clipTitleOrDefault,
  RECORDER_TEXT,
  recordingExtension,
} from '../../../../common/recorder';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { ApiError } from '../../../lib/api-request';
import { getStation } from '../../../lib/station';
import { useBrowserValue } from '../../../lib/use-browser-value';
import { getPlayer, isIOS, useCurrentTrack, usePlayerState, type AudioPlayer } from '../../player';
import { createServerClip } from '../api';
import { getRecorder, useRecorderState } from '../recorder-store';
import { canRecordStream, type StreamRecorder } from '../stream-recorder';
import { CreateClipForm, type ClipRequest } from './create-clip-form';
import type { ListedClip } from './recordings-dialog';
import { useClipSharing } from './use-clip-sharing';
import { UnsupportedNotice } from './unsupported-notice';

// The list (and the dialog machinery under it) loads when first opened, not with the page.
const RecordingsDialog = lazy(() =>
  import('./recordings-dialog').then((m) => ({ default: m.RecordingsDialog })),
);

/** The server's own words for a refused clip, when it gave any. */
function serverReason(error: unknown): string | undefined {
  return error instanceof ApiError && error.status < 500 ? error.serverMessage : undefined;
}

/** Whether this browser can record the stream it plays (not on iOS, whose players hide the audio). */
const canRecordHere = () => canRecordStream() && !isIOS();

const formatTime = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/**
 * SPEC.md section 2 (6) and section 4 (recorder): record a moment of the live stream the listener is
 * hearing. Where the browser cannot record, 'Save this moment' asks the server to cut it instead.
 */
export function RecorderSection({
  player = getPlayer(),
  recorder = getRecorder(),
  localRecording: localRecordingProp,
}: {
  player?: AudioPlayer;
  recorder?: StreamRecorder;
  localRecording?: boolean;
}) {
  const station = getStation();
  // Shown as recordable in the prerendered page (most browsers are); switched after hydration where not.
  const recordsHere = useBrowserValue(canRecordHere, true);
  const localRecording = localRecordingProp ?? recordsHere;
  const playerState = usePlayerState(player);
  const state = useRecorderState(recorder);
  const { data: nowPlaying } = useCurrentTrack();
  const [formOpen, setFormOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const [serverClips, setServerClips] = useState<ListedClip[]>([]);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const enabled = playerState.playing && Boolean(player.audio);
  const recording = state.status === 'recording';
  const track = nowPlaying?.current_track.title;

  const { share, sharingId } = useClipSharing(state.recordings, station.name);

  const clips = useMemo<ListedClip[]>(
    () =>
      [...state.recordings.map((r) => ({ ...r, shareUrl: undefined })), ...serverClips].sort((a, b) =>
        b.timestamp.localeCompare(a.timestamp),
      ),
    [state.recordings, serverClips],
  );

  const startRecording = (request: ClipRequest) => {
    setProblem(null);
    try {
      recorder.start(player.audio, {
        title: clipTitleOrDefault(request.title, track, station.name),
        description: clipDescriptionOrDefault(request.description),
        maxSeconds: request.seconds,
        streamClock: () => player.clock.now(),
      });
      setFormOpen(false);
      toast({ title: RECORDER_TEXT.started });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      toast({
        title: RECORDER_TEXT.failedTitle,
        description: RECORDER_TEXT.failedToStart,
        variant: 'destructive',
      });
    }
  };

  const saveOnServer = async (request: ClipRequest) => {
    setSaving(true);
    setProblem(null);
    try {
      const heard = player.clock.now();
      const clip = await createServerClip({
        seconds: request.seconds,
        title: clipTitleOrDefault(request.title, track, station.name),
        description: clipDescriptionOrDefault(request.description),
        ...(heard !== null ? { streamClock: heard } : {}),
      });
      setServerClips((list) => [
        {
          id: clip.id,
          title: clip.title,
          description: clipDescriptionOrDefault(request.description),
          duration: clip.duration,
          timestamp: new Date().toISOString(),
          url: clip.audioUrl,
          shareUrl: clip.shareUrl,
        },
        ...list,
      ]);
      setFormOpen(false);
      toast({ title: RECORDER_TEXT.completed });
    } catch (error) {
      console.warn('Saving the moment failed', error);
      toast({
        title: RECORDER_TEXT.failedTitle,
        description: serverReason(error) ?? RECORDER_TEXT.failedToStart,
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  const stop = () => {
    try {
      recorder.stop();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : RECORDER_TEXT.errorStopping);
    }
  };

  const download = (clip: ListedClip) => {
    const link = document.createElement('a');
    // Server clips are MP3 and named by the server; a recording's extension is the type it was recorded in.
    const recorded = clip.shareUrl ? undefined : state.recordings.find((r) => r.id === clip.id);
    link.href = clip.shareUrl ? `${clip.url}?download=1` : clip.url;
    link.download = clipFileName(
      clip.title,
      clip.shareUrl ? '.mp3' : recordingExtension(recorded?.blob.type ?? ''),
    );
    document.body.appendChild(link);
    link.click();
    link.remove();
    toast({ title: RECORDER_TEXT.downloadStarted });
  };

  const remove = (clip: ListedClip) => {
    if (clip.shareUrl) setServerClips((list) => list.filter((c) => c.id !== clip.id));
    else recorder.remove(clip.id);
  };

  return (
    <section aria-labelledby="recorder-title">
      <Card className="overflow-hidden">
        <CardHeader className="bg-gradient-to-r from-blue-950 to-blue-800 text-white">
          <CardTitle id="recorder-title" className="flex items-center gap-2">
            <Disc3 className="h-5 w-5 text-amber-300" aria-hidden="true" />
            Record Live Moments
          </CardTitle>
          <CardDescription className="text-blue-100">
            Capture a blessing from the live broadcast and share it with someone who needs to hear it.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5 pt-6">
          {!localRecording && <UnsupportedNotice audio={player.audio} playing={playerState.playing} />}

          {!enabled && !recording && (
            <p
              className="flex items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
              role="note"
            >
              <Volume2 className="h-4 w-4" aria-hidden="true" />
              {RECORDER_TEXT.speakers} Start the radio above to record what you hear.
            </p>
          )}

          {recording ? (
            <div className="flex flex-wrap items-center gap-4" aria-live="polite">
              <span className="inline-flex items-center gap-2 font-semibold text-red-700">
                <Circle className="h-3 w-3 animate-pulse fill-current" aria-hidden="true" />
                Recording
              </span>
              <span className="font-mono text-lg tabular-nums" data-testid="recording-timer">
                {formatTime(state.elapsed)} / {formatTime(state.maxSeconds)}
              </span>
              <div className="h-2 min-w-32 flex-1 overflow-hidden rounded-full bg-slate-200">
                <div
                  className="h-full bg-red-600 transition-all"
                  style={{ width: `${(state.elapsed / state.maxSeconds) * 100}%` }}
                />
              </div>
              <Button variant="destructive" onClick={stop}>
                <Square className="fill-current" aria-hidden="true" />
                Stop
              </Button>
            </div>
          ) : formOpen ? (
            <CreateClipForm
              submitLabel={localRecording ? 'Start Recording' : RECORDER_TEXT.saveMoment}
              defaultTitle={clipTitleOrDefault('', track, station.name)}
              busy={saving || !enabled}
              onSubmit={(request) => (localRecording ? startRecording(request) : void saveOnServer(request))}
              onCancel={() => setFormOpen(false)}
            />
          ) : (
            <div className="flex flex-wrap gap-3">
              <Button disabled={!enabled} onClick={() => setFormOpen(true)}>
                <Circle className="fill-current text-red-500" aria-hidden="true" />
                {localRecording ? 'Record a Clip' : RECORDER_TEXT.saveMoment}
              </Button>
              <Button variant="outline" onClick={() => setListOpen(true)}>
                <ListMusic aria-hidden="true" />
                {RECORDER_TEXT.viewRecordings} ({clips.length})
              </Button>
            </div>
          )}

          {problem && (
            <p className="text-sm text-red-700" role="alert">
              {problem}
            </p>
          )}
        </CardContent>
      </Card>
      {listOpen && (
        <Suspense fallback={null}>
          <RecordingsDialog
            open={listOpen}
            onOpenChange={setListOpen}
            clips={clips}
            onDownload={download}
            onShare={(clip) => void share(clip)}
            sharingId={sharingId}
            onDelete={remove}
          />
        </Suspense>
      )}
    </section>
  );
}
