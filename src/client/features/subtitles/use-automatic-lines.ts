import { useEffect, useState } from 'react';
import { STATION_LANGUAGE, type SubtitleEntry } from '../../../common/subtitles';
import { withLine } from './current-line';

/**
 * Lines recognised from the station's speech as they come (the same /ws push listeners get, in the
 * station's language), newest first, for the captioner to read and correct.
 */
export function useAutomaticLines(limit = 30): SubtitleEntry[] {
  const [lines, setLines] = useState<SubtitleEntry[]>([]);
  useEffect(() => {
    let cancelled = false;
    const cleanup: (() => void)[] = [];
    void import('../../lib/ws-client').then(({ getWsClient }) => {
      if (cancelled) return;
      const ws = getWsClient();
      const choose = () => ws.send({ type: 'subtitles_language', language: STATION_LANGUAGE.code });
      choose();
      cleanup.push(
        ws.onStatus((status) => status === 'open' && choose()),
        ws.onMessage((message) => {
          if (message.type !== 'subtitle' || message.data.language !== STATION_LANGUAGE.code) return;
          const entry = message.data.entry;
          // A correction (not automatic) at an automatic line's second replaces it here too.
          setLines((old) =>
            entry.automatic
              ? withLine(old, entry).slice(0, limit)
              : old.map((l) => (l.timestamp === entry.timestamp ? { ...entry, automatic: undefined } : l)),
          );
        }),
        () => ws.send({ type: 'subtitles_language', language: null }),
      );
    });
    return () => {
      cancelled = true;
      for (const c of cleanup) c();
    };
  }, [limit]);
  return lines;
}
