// Owns: reading a WebVTT file's cues (start, end, text); blocks it cannot read are skipped.
// Must not: find files or place cues on the stream clock (library.ts, autodj-deck.ts do).
export interface VttCue {
  /** Seconds from the start of the media file. */
  start: number;
  end: number;
  text: string;
}

const TIMESTAMP = /^(?:(\d+):)?(\d{2}):(\d{2})[.,](\d{3})$/;

function seconds(stamp: string): number | null {
  const m = TIMESTAMP.exec(stamp.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** Reads the cues of a WebVTT file; blocks it cannot read are skipped rather than failing the track. */
export function parseVtt(source: string): VttCue[] {
  const blocks = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/);
  const cues: VttCue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    const timingAt = lines.findIndex((line) => line.includes('-->'));
    if (timingAt < 0 || /^(NOTE|STYLE|REGION)\b/.test(lines[0]!)) continue;
    const [from, rest] = lines[timingAt]!.split('-->');
    const start = seconds(from ?? '');
    const end = seconds((rest ?? '').trim().split(/\s+/)[0] ?? '');
    const text = lines
      .slice(timingAt + 1)
      .join(' ')
      .replace(/<[^>]*>/g, '')
      .trim();
    if (start === null || end === null || !(end > start) || !text) continue;
    cues.push({ start, end, text });
  }
  return cues.sort((a, b) => a.start - b.start);
}
