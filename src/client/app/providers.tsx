import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { TOAST_HOTKEY } from '../../common/ui';
import { useToast } from '../components/ui/use-toast';
import { queryClient as defaultQueryClient } from '../lib/query-client';

const Toaster = lazy(() => import('../components/ui/toaster').then(({ Toaster }) => ({ default: Toaster })));

const INTERACTIONS = ['pointerdown', 'keydown'] as const;

/** Calls back at the visitor's first tap, click or key press. */
function onFirstInteraction(callback: (event: Event) => void): () => void {
  const stop = () => INTERACTIONS.forEach((type) => window.removeEventListener(type, handle, true));
  const handle = (event: Event) => {
    stop();
    callback(event);
  };
  INTERACTIONS.forEach((type) => window.addEventListener(type, handle, { capture: true, passive: true }));
  return stop;
}

/** The notification area's key (F8), matched as Radix Toast matches it. */
function isToastHotkey(event: Event): boolean {
  if (!(event instanceof KeyboardEvent)) return false;
  const pressed = event as unknown as Record<string, unknown>;
  return TOAST_HOTKEY.every((key) => pressed[key] || event.code === key);
}

/**
 * The toast area (Radix Toast) is not needed to show a page: its code loads at the visitor's first tap or
 * key press (toasts answer what they do), or at the first toast if that comes sooner, so it stays out of
 * the page's start-up (docs/decisions/019). When that first key is F8, the area takes the focus as soon
 * as it is there, as F8 does once it is loaded, unless the focus has moved on meanwhile.
 */
function DeferredToaster() {
  const { toasts } = useToast();
  const [wanted, setWanted] = useState(false);
  // The element that had the focus when F8 came first; undefined when it did not.
  const focusedAtHotkey = useRef<Element | null | undefined>(undefined);
  useEffect(
    () =>
      onFirstInteraction((event) => {
        if (isToastHotkey(event)) focusedAtHotkey.current = document.activeElement;
        setWanted(true);
      }),
    [],
  );
  const onViewport = useCallback((viewport: HTMLOListElement | null) => {
    if (!viewport || focusedAtHotkey.current === undefined) return;
    if (document.activeElement === focusedAtHotkey.current) viewport.focus();
    focusedAtHotkey.current = undefined;
  }, []);
  if (!wanted && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster viewportRef={onViewport} />
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
