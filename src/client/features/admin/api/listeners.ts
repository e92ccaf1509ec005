import { queryOptions, useQuery } from '@tanstack/react-query';
import { listenerStatsSchema, type ListenerStatsPeriod } from '../../../../common/listeners';
import { staffGet } from './staff-request';

export const LISTENER_STATS_PATH = '/api/admin/listeners';
/** Listener figures change by the minute; the tab refreshes them while it is open. */
export const LISTENER_STATS_REFRESH_MS = 60_000;

export const listenerStatsQuery = (days: ListenerStatsPeriod) =>
  queryOptions({
    queryKey: [LISTENER_STATS_PATH, days],
    queryFn: () => staffGet(`${LISTENER_STATS_PATH}?days=${days}`, listenerStatsSchema),
  });

export function useListenerStats(days: ListenerStatsPeriod) {
  return useQuery({ ...listenerStatsQuery(days), refetchInterval: LISTENER_STATS_REFRESH_MS, staleTime: 0 });
}
