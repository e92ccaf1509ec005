import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { PREFETCH_DELAY_MS, PREFETCH_FRESHNESS_MS } from '../../../common/ui';
import { featuredContentQuery } from '../../features/featured-content';
import { programsTodayQuery } from '../../features/programs';

/** SPEC.md section 4: prefetch only; a fresh enough cache is left alone and a failure stays quiet. */
function prefetchHomeData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.prefetchQuery({ ...featuredContentQuery(), staleTime: PREFETCH_FRESHNESS_MS.featured }),
    queryClient.prefetchQuery({ ...programsTodayQuery(), staleTime: PREFETCH_FRESHNESS_MS.programs }),
  ]);
}

type Trigger = keyof typeof PREFETCH_DELAY_MS;

/**
 * SPEC.md section 4: prefetch the featured list and today's programs after mouse move (2 s), scroll (1 s),
 * window focus, coming online (0.5 s) and 3 s after load. Each trigger is debounced on its own delay.
 */
export function usePrefetchOnActivity() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const timers = new Map<Trigger, ReturnType<typeof setTimeout>>();
    const schedule = (trigger: Trigger) => {
      clearTimeout(timers.get(trigger));
      timers.set(
        trigger,
        setTimeout(() => {
          timers.delete(trigger);
          void prefetchHomeData(queryClient);
        }, PREFETCH_DELAY_MS[trigger]),
      );
    };
    const onMouseMove = () => schedule('mouseMove');
    const onScroll = () => schedule('scroll');
    const onFocus = () => schedule('focus');
    const onOnline = () => schedule('online');

    window.addEventListener('mousemove', onMouseMove, { passive: true });
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('focus', onFocus);
    window.addEventListener('online', onOnline);
    schedule('load');
    return () => {
      window.removeEventListener('mousemove', onMouseMove);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('online', onOnline);
      timers.forEach((timer) => clearTimeout(timer));
    };
  }, [queryClient]);
}
