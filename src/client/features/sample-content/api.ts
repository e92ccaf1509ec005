import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sampleContentSchema, sampleRemovalSchema } from '../../../common/sample-content';
import { apiGetParsed, apiSend } from '../../lib/api-request';

export const SAMPLE_CONTENT_PATH = '/api/admin/sample-content';

export const sampleContentQuery = () =>
  queryOptions({
    queryKey: [SAMPLE_CONTENT_PATH],
    queryFn: () => apiGetParsed(SAMPLE_CONTENT_PATH, sampleContentSchema),
  });

export function useSampleContent() {
  return useQuery(sampleContentQuery());
}

/** Removes the sample; every list in the panel (schedule, content, this notice) is read again. */
export function useRemoveSampleContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiSend('POST', `${SAMPLE_CONTENT_PATH}/removal`, { confirm: true }, sampleRemovalSchema),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
