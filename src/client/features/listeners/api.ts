import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { listenerStatsSchema, type ListenerStatsPeriod } from '../../../common/listeners';
import { apiGet } from '../../lib/api-request';
import { staffGet } from '../admin/api/staff-request';

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

/** Listeners connected right now, as the public now-playing answer counts them. */
export const RADIO_CURRENT_PATH = '/api/radio/current';
export const LISTENERS_NOW_REFRESH_MS = 15_000;
const listenersNowSchema = z.object({ listeners: z.number().int().nonnegative() });

export const listenersNowQuery = () =>
  queryOptions({
    queryKey: [LISTENER_STATS_PATH, 'now'],
    queryFn: async () => listenersNowSchema.parse(await apiGet(RADIO_CURRENT_PATH)).listeners,
  });

export function useListenersNow() {
  return useQuery({ ...listenersNowQuery(), refetchInterval: LISTENERS_NOW_REFRESH_MS, staleTime: 0 });
}
