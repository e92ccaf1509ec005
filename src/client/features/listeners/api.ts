import { queryOptions, useQuery } from '@tanstack/react-query';
import { listenerStatsSchema, type ListenerStatsPeriod } from '../../../common/listeners';
import { apiGetParsed } from '../../lib/api-request';
import { currentTrackQuery } from '../player';

export const LISTENER_STATS_PATH = '/api/admin/listeners';
/** Listener figures change by the minute; the tab refreshes them while it is open. */
export const LISTENER_STATS_REFRESH_MS = 60_000;

export const listenerStatsQuery = (days: ListenerStatsPeriod) =>
  queryOptions({
    queryKey: [LISTENER_STATS_PATH, days],
    queryFn: () => apiGetParsed(`${LISTENER_STATS_PATH}?days=${days}`, listenerStatsSchema),
  });

export function useListenerStats(days: ListenerStatsPeriod) {
  return useQuery({ ...listenerStatsQuery(days), refetchInterval: LISTENER_STATS_REFRESH_MS, staleTime: 0 });
}

/** Listeners connected right now: the public now-playing answer (the player's query) counts them. */
export const LISTENERS_NOW_REFRESH_MS = 15_000;

export function useListenersNow() {
  return useQuery({
    ...currentTrackQuery(),
    select: (nowPlaying) => nowPlaying.listeners,
    refetchInterval: LISTENERS_NOW_REFRESH_MS,
    staleTime: 0,
  });
}
