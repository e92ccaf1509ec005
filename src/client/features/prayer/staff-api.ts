import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { prayerRequestListSchema } from '../../../common/prayer';
import { apiGetParsed, apiSend } from '../../lib/api-request';
import { PRAYER_REQUESTS_PATH } from './api';

/** The staff inbox, newest first (the station orders it). */
export const prayerRequestsQuery = () =>
  queryOptions({
    queryKey: [PRAYER_REQUESTS_PATH],
    queryFn: () => apiGetParsed(PRAYER_REQUESTS_PATH, prayerRequestListSchema),
  });

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
