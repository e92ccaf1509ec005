import { useState, type FormEvent } from 'react';
import { formatDuration } from '../../../../common/duration';
import type { Transcript } from '../../../../common/speech';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { serverMessage } from '../../../lib/api-request';
import { useSaveTranscript } from '../api';

/** '0:07', '12:45', '1:02:09': where a line starts in the recording (the second it is in, not the nearest). */
export function recordingTime(seconds: number): string {
  return formatDuration(Math.floor(seconds));
}

/**
 * A finished transcript's timed lines, each one's words editable; saved together. The times stay as
 * recognised: they are when each line is heard in the recording.
 */
export function TranscriptLines({
  mediaId,
  title,
  transcript,
}: {
  mediaId: string;
  title: string;
  transcript: Transcript;
}) {
  /** The lines as staff are typing them; null: as saved. */
  const [draft, setDraft] = useState<string[] | null>(null);
  /** Said in the screen, not a toast: the dialog hides the rest of the page from screen readers. */
  const [saved, setSaved] = useState(false);
  const save = useSaveTranscript(mediaId);
  const texts = draft ?? transcript.cues.map((cue) => cue.text);
  const changed = texts.filter((text, i) => text !== transcript.cues[i]?.text).length;
  const empty = texts.some((text) => !text.trim());

  const change = (index: number, text: string) => setDraft(texts.map((old, i) => (i === index ? text : old)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed === 0 || empty || save.isPending) return;
    const cues = transcript.cues.map((cue, i) => ({ ...cue, text: texts[i]!.trim() }));
    save.mutate(cues, {
      onSuccess: () => {
        setDraft(null);
        setSaved(true);
      },
    });
  };

  if (transcript.cues.length === 0) {
    return <p className="text-sm text-slate-700">No speech was recognised in this recording.</p>;
  }

  return (
    <form onSubmit={submit} aria-label="Transcript lines" className="space-y-3">
      <ol className="max-h-[50vh] space-y-2 overflow-y-auto pr-1" data-testid="transcript-lines">
        {transcript.cues.map((cue, i) => {
          const id = `transcript-line-${i}`;
          const at = recordingTime(cue.start);
          return (
            <li key={`${cue.start}-${i}`} className="flex items-center gap-2">
              <label htmlFor={id} className="w-16 shrink-0 font-mono text-xs text-slate-700">
                <span className="sr-only">Line at </span>
                {at}
              </label>
              <Input
                id={id}
                value={texts[i]}
                maxLength={1000}
                aria-invalid={!texts[i]!.trim() || undefined}
                onChange={(event) => change(i, event.target.value)}
              />
            </li>
          );
        })}
      </ol>
      {empty && (
        <p role="alert" className="text-sm text-red-700">
          A line must not be empty. Type what was said, or put the line back as it was.
        </p>
      )}
      {save.isError && (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(save.error) ?? 'The transcript could not be saved. Please try again.'}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={changed === 0 || empty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save corrections'}
        </Button>
        <Button type="button" variant="outline" disabled={changed === 0} onClick={() => setDraft(null)}>
          Undo changes
        </Button>
        <span className="text-sm text-slate-600" aria-live="polite">
          {changed > 0
            ? `${changed} ${changed === 1 ? 'line' : 'lines'} changed`
            : saved
              ? `Saved: listeners and podcast apps now get the corrected transcript of "${title}".`
              : 'No changes'}
        </span>
      </div>
    </form>
  );
}
