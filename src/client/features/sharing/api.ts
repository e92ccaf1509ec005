import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShareChannel, ViralStats } from '../../../common/sharing';
import { VIRAL_STATS_REFETCH_MS } from '../../../common/ui';
import { apiGet } from '../../lib/api-request';

export const VIRAL_STATS_PATH = '/api/viral-stats';
export const SHARE_EVENTS_PATH = '/api/share-events';

export const viralStatsQuery = () =>
  queryOptions({
    queryKey: [VIRAL_STATS_PATH],
    queryFn: async () => (await apiGet<ViralStats>(VIRAL_STATS_PATH))!,
  });

/** The 'Viral Impact' figures, refreshed every 30 s. */
export function useViralStats() {
  return useQuery({ ...viralStatsQuery(), refetchInterval: VIRAL_STATS_REFETCH_MS });
}

/**
 * Counts a share with its channel. Sent with keepalive, since a network link opens a new tab and the page
 * may go; a failure is not the listener's concern and is not shown.
 */
export function countShare(channel: ShareChannel): void {
  void fetch(SHARE_EVENTS_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel }),
    keepalive: true,
  }).catch(() => undefined);
}
