import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subtitleLinesQuery } from './api/subtitles-api';
import { withLine } from './current-line';

/**
 * Tells the station which language's new lines this listener wants over /ws and adds each pushed line
 * to that language's list at once, so a line is on screen before its second is heard, whatever the refetch.
 */
export function useSubtitlePush(language: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!language) return;
    let cancelled = false;
    const cleanup: (() => void)[] = [];
    void import('../../lib/ws-client').then(({ getWsClient }) => {
      if (cancelled) return;
      const ws = getWsClient();
      const choose = () => ws.send({ type: 'subtitles_language', language });
      choose();
      cleanup.push(
        ws.onStatus((status) => status === 'open' && choose()),
        ws.onMessage((message) => {
          if (message.type !== 'subtitle' || message.data.language !== language) return;
          queryClient.setQueryData(subtitleLinesQuery(language).queryKey, (old) =>
            withLine(old, message.data.entry),
          );
        }),
        () => ws.send({ type: 'subtitles_language', language: null }),
      );
    });
    return () => {
      cancelled = true;
      for (const c of cleanup) c();
    };
  }, [language, queryClient]);
}
