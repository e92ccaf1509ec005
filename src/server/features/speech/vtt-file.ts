/** A cue of a transcript: its text and its span in seconds from the recording's start. */
export interface TranscriptCue {
  text: string;
  start: number;
  end: number;
}

/** 3725.5 → '01:02:05.500' */
const at = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** WebVTT of the cues; a cue's text never holds '-->' or a blank line, which would end or split it. */
export function vttOf(cues: readonly TranscriptCue[]): string {
  const body = cues.map(
    (c) =>
      `${at(c.start)} --> ${at(Math.max(c.end, c.start + 0.1))}\n${c.text
        .replace(/-->/g, '→')
        .replace(/[\r\n]+/g, ' ')
        .trim()}`,
  );
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}
