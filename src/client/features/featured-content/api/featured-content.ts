import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeaturedItem } from '../../../../common/featured-content';
import { apiRequest, readList } from '../../../lib/api-request';

/** The one featured list: the home page and the admin tab show the same resource under one key. */
export const FEATURED_CONTENT_PATH = '/api/featured-content';

export const featuredItemPath = (id: string) => `${FEATURED_CONTENT_PATH}/${encodeURIComponent(id)}`;

export const featuredContentQuery = () =>
  queryOptions({
    queryKey: [FEATURED_CONTENT_PATH],
    queryFn: () => readList<FeaturedItem>(FEATURED_CONTENT_PATH),
  });

export function useFeaturedContent() {
  return useQuery(featuredContentQuery());
}

export function useInvalidateFeatured() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: featuredContentQuery().queryKey });
}

/** POST /api/featured-content/{id}/play; on success the featured list is reloaded. */
export function usePlayFeatured() {
  const invalidate = useInvalidateFeatured();
  return useMutation({
    mutationFn: (id: string) => apiRequest('POST', `${featuredItemPath(id)}/play`),
    onSuccess: invalidate,
  });
}
