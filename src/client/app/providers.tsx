import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useToast } from '../components/ui/use-toast';
import { queryClient as defaultQueryClient } from '../lib/query-client';

const Toaster = lazy(() => import('../components/ui/toaster').then(({ Toaster }) => ({ default: Toaster })));

const INTERACTIONS = ['pointerdown', 'keydown'] as const;

/** Calls back at the visitor's first tap, click or key press. */
function onFirstInteraction(callback: () => void): () => void {
  const stop = () => INTERACTIONS.forEach((type) => window.removeEventListener(type, handle, true));
  const handle = () => {
    stop();
    callback();
  };
  INTERACTIONS.forEach((type) => window.addEventListener(type, handle, { capture: true, passive: true }));
  return stop;
}

/**
 * The toast area (Radix Toast) is not needed to show a page: its code loads at the visitor's first tap or
 * key press (toasts answer what they do), or at the first toast if that comes sooner, so it stays out of
 * the page's start-up (docs/decisions/019).
 */
function DeferredToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  useEffect(() => onFirstInteraction(() => setWanted(true)), []);
  if (!wanted && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

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
      <DeferredToaster />
    </QueryClientProvider>
  );
}
