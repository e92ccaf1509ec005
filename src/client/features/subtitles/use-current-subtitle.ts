import { SUBTITLE_WINDOW_SECONDS, SUBTITLES_REFETCH_MS } from '../../../common/subtitles';
import { usePlayerState } from '../player';
import { useSubtitleLines } from './api/subtitles-api';
import { currentLine } from './current-line';
import { useHeardSecond } from './use-heard-second';

/**
 * SPEC.md sections 4 and 9: a language's lines while enabled and the line for the second being heard.
 * The data hook refetches every 10 s and shows a line within 8 s; the overlay refetches every 5 s while
 * playing and shows it within 6 s.
 */
export function useCurrentSubtitle(
  language: string | null,
  enabled: boolean,
  as: 'hook' | 'overlay' = 'hook',
) {
  const { playing } = usePlayerState();
  const refetch = as === 'hook' ? SUBTITLES_REFETCH_MS.hook : playing && SUBTITLES_REFETCH_MS.overlay;
  const lines = useSubtitleLines(language, enabled, refetch);
  const heard = useHeardSecond();
  return { lines, heard, current: currentLine(lines.data, heard, SUBTITLE_WINDOW_SECONDS[as]) };
}
