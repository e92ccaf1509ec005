import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { subscriberListSchema } from '../../../common/subscribers';
import { apiDownload, apiGetParsed } from '../../lib/api-request';

export const SUBSCRIBERS_PATH = '/api/email-subscribers';
export const SUBSCRIBERS_CSV_PATH = '/api/email-subscribers.csv';

export const subscribersQuery = () =>
  queryOptions({
    queryKey: [SUBSCRIBERS_PATH],
    queryFn: () => apiGetParsed(SUBSCRIBERS_PATH, subscriberListSchema),
  });

export function useSubscribers() {
  return useQuery(subscribersQuery());
}

/** The CSV export needs the bearer token, so it is fetched and handed to the browser as a file. */
export function useExportSubscribers() {
  return useMutation({
    mutationFn: async () => {
      const blob = await apiDownload(SUBSCRIBERS_CSV_PATH);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `subscribers-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // Let the download start before the address is released.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
}
