import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

/** Seconds of silence between lines that start a new paragraph. */
const PARAGRAPH_PAUSE_SECONDS = 1.5;

const seconds = (stamp: string) => stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);

/** A WebVTT transcript's words as paragraphs, broken where the speaker paused. */
export function paragraphsOf(vtt: string): string[] {
  const paragraphs: string[][] = [];
  let lastEnd = -Infinity;
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const [start = '0', end = '0'] = lines[timing]!.split('-->').map((s) => s.trim().split(/\s+/)[0]!);
    const text = lines
      .slice(timing + 1)
      .join(' ')
      .trim();
    if (!text) continue;
    if (paragraphs.length === 0 || seconds(start) - lastEnd >= PARAGRAPH_PAUSE_SECONDS) paragraphs.push([]);
    paragraphs.at(-1)!.push(text);
    lastEnd = seconds(end);
  }
  return paragraphs.map((words) => words.join(' '));
}

/**
 * A sermon's transcript for the listener, folded until asked for: read on the page (fetched when opened),
 * or saved as the WebVTT file players and podcast apps read.
 */
export function SermonTranscript({ url, title }: { url: string; title: string }) {
  const [open, setOpen] = useState(false);
  const transcript = useQuery({
    queryKey: ['transcript', url],
    queryFn: async () => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${response.status}`);
      return paragraphsOf(await response.text());
    },
    enabled: open,
    staleTime: 60_000,
  });
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer font-medium text-blue-800 underline-offset-2 hover:underline">
        Read the transcript<span className="sr-only"> of {title}</span>
      </summary>
      <div
        className="mt-2 space-y-2 rounded-md bg-slate-50 p-3 text-slate-800"
        data-testid="sermon-transcript"
      >
        {transcript.isPending && <p role="status">Loading the transcript…</p>}
        {transcript.isError && (
          <p role="alert">The transcript could not be loaded. Please try again later.</p>
        )}
        {transcript.data?.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
        <p className="text-xs text-slate-600">
          Made from the recording by speech recognition; it may contain mistakes.{' '}
          <a href={url} download className="font-medium text-blue-800 underline underline-offset-2">
            Download it (WebVTT)
          </a>
        </p>
      </div>
    </details>
  );
}
