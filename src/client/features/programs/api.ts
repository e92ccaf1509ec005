import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FeaturedItem } from '../../../common/featured-content';
import type { Program } from '../../../common/programs';
import { PREFETCH_FRESHNESS_MS, PROGRAMS_REFETCH_MS } from '../../../common/ui';
import { apiGet, apiRequest } from '../../lib/api-request';

export const PROGRAMS_TODAY_PATH = '/api/programs/today';
export const FEATURED_CONTENT_PATH = '/api/featured-content';

/**
 * Reads a list typed by its contract in src/common. Only the array shape is checked at run time: zod's
 * runtime would take a sixth of the home page's script budget.
 */
async function readList<T>(path: string): Promise<T[]> {
  const data = await apiGet<unknown>(path);
  if (!Array.isArray(data)) throw new Error(`Unexpected answer from ${path}`);
  return data as T[];
}

export const programsTodayQuery = () =>
  queryOptions({ queryKey: [PROGRAMS_TODAY_PATH], queryFn: () => readList<Program>(PROGRAMS_TODAY_PATH) });

export const featuredContentQuery = () =>
  queryOptions({
    queryKey: [FEATURED_CONTENT_PATH],
    queryFn: () => readList<FeaturedItem>(FEATURED_CONTENT_PATH),
  });

/** SPEC.md section 7: today's programs are refetched every 30 s and on focus. */
export function useProgramsToday() {
  return useQuery({
    ...programsTodayQuery(),
    refetchInterval: PROGRAMS_REFETCH_MS,
    refetchOnWindowFocus: 'always',
  });
}

export function useFeaturedContent() {
  return useQuery(featuredContentQuery());
}

/** POST /api/featured-content/{id}/play; on success the featured list is reloaded. */
export function usePlayFeatured() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('POST', `${FEATURED_CONTENT_PATH}/${encodeURIComponent(id)}/play`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [FEATURED_CONTENT_PATH] }),
  });
}

/** SPEC.md section 4: prefetch only; a fresh enough cache is left alone and a failure stays quiet. */
export function prefetchHomeData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.prefetchQuery({ ...featuredContentQuery(), staleTime: PREFETCH_FRESHNESS_MS.featured }),
    queryClient.prefetchQuery({ ...programsTodayQuery(), staleTime: PREFETCH_FRESHNESS_MS.programs }),
  ]);
}
