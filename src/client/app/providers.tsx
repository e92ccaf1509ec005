import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from '../components/ui/toaster';
import { queryClient as defaultQueryClient } from '../lib/query-client';

/**
 * Everything a page needs around it: the data cache and the toast area. Tooltips (700 ms / 300 ms) carry
 * their own provider, see components/ui/tooltip.tsx, so pages without tooltips do not load their engine.
 */
export function Providers({
  children,
  queryClient = defaultQueryClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
