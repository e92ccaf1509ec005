import type { SubtitleEntry } from '../../../common/subtitles';

/**
 * SPEC.md section 4: the current line is the latest entry whose timestamp is not after the second being
 * heard, shown only if it is at most `windowSeconds` old. Null when nothing is heard or nothing fits.
 */
export function currentLine(
  entries: readonly SubtitleEntry[] | undefined,
  heard: number | null,
  windowSeconds: number,
): SubtitleEntry | null {
  if (!entries || heard === null) return null;
  let best: SubtitleEntry | null = null;
  for (const entry of entries) {
    if (entry.timestamp > heard) continue;
    if (!best || entry.timestamp >= best.timestamp) best = entry;
  }
  return best && heard - best.timestamp <= windowSeconds ? best : null;
}

/** A pushed line joins the list; one at the same second replaces it (a correction), newest first. */
export function withLine(
  entries: readonly SubtitleEntry[] | undefined,
  line: SubtitleEntry,
): SubtitleEntry[] {
  const rest = (entries ?? []).filter((e) => e.id !== line.id && e.timestamp !== line.timestamp);
  return [line, ...rest].sort((a, b) => b.timestamp - a.timestamp);
}
