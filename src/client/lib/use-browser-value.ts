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
