import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * A value only the browser knows (what it supports, the page's address, whether it is online). The
 * prerendered page was made with `serverValue`; React hydrates with it too and then renders again with
 * the browser's own, so the served HTML and the first render agree. `read` must return the same value
 * each time it is called until `subscribe` reports a change.
 */
export function useBrowserValue<T>(
  read: () => T,
  serverValue: T,
  subscribe: (onChange: () => void) => () => void = unchanging,
): T {
  return useSyncExternalStore(subscribe, read, () => serverValue);
}

const pageOrigin = () => window.location.origin;

/** The page's own origin ('' in the prerendered HTML), e.g. for a share link to the station. */
export function usePageOrigin(): string {
  return useBrowserValue(pageOrigin, '');
}

const hydrated = () => true;

/** What a query shows: its data, and whether it is still loading or has failed. */
export interface QueryView<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * A query as the prerendered page showed it (loading) while React hydrates, then as it is. A section
 * hydrated after its data was prefetched would otherwise not match the HTML it takes over.
 */
export function useQueryAsServed<T>(query: QueryView<T>): QueryView<T> {
  const afterHydration = useBrowserValue(hydrated, false);
  return afterHydration ? query : { data: undefined, isPending: true, isError: false };
}
