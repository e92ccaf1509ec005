import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PRAYER_READ_PATH,
  PRAYER_UNREAD_PATH,
  prayerRequestListSchema,
  unreadCountSchema,
} from '../../../common/prayer';
import { apiGetParsed, apiSend } from '../../lib/api-request';
import { PRAYER_REQUESTS_PATH } from './api';

/** New requests show up in an open inbox, and in the tab's count, within this long. */
const REFRESH_MS = 30_000;

/** The staff inbox, newest first (the station orders it). */
export const prayerRequestsQuery = () =>
  queryOptions({
    queryKey: [PRAYER_REQUESTS_PATH],
    queryFn: () => apiGetParsed(PRAYER_REQUESTS_PATH, prayerRequestListSchema),
    refetchInterval: REFRESH_MS,
  });

const unreadQuery = () =>
  queryOptions({
    queryKey: [PRAYER_UNREAD_PATH],
    queryFn: () => apiGetParsed(PRAYER_UNREAD_PATH, unreadCountSchema),
    refetchInterval: REFRESH_MS,
  });

/** How many requests no staff member has had in front of them yet. */
export const usePrayerUnread = () => useQuery(unreadQuery());

/** The inbox was seen as it stood at `upTo` (its newest request's time). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upTo: string) => apiSend('POST', PRAYER_READ_PATH, { upTo }, unreadCountSchema),
    onSuccess: (count) => queryClient.setQueryData(unreadQuery().queryKey, count),
  });
}

export function usePrayerRequests() {
  return useQuery(prayerRequestsQuery());
}

function useInboxMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: prayerRequestsQuery().queryKey }),
  });
}

export const useMarkPrayed = () =>
  useInboxMutation((id: string) =>
    apiSend('POST', `${PRAYER_REQUESTS_PATH}/${encodeURIComponent(id)}/prayed`),
  );

export const useDeletePrayerRequest = () =>
  useInboxMutation((id: string) => apiSend('DELETE', `${PRAYER_REQUESTS_PATH}/${encodeURIComponent(id)}`));
