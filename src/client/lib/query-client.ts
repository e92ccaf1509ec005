import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiGet } from './api-request';

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** Reads the path made by joining the query key's parts with '/'. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => apiGet<T>(queryKey.join('/'), { on401: options.on401 });
}

/** SPEC.md section 7 defaults: never stale, no refetch on focus or interval, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
