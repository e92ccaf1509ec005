import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';

export { prepareClassMerging } from './lib/utils';

/**
 * React takes over the page: the prerendered home page (scripts/prerender.mjs) is hydrated, other pages
 * are rendered. As a transition, the work is cut into short slices, so the page answers taps meanwhile.
 */
export function renderApp(container: HTMLElement) {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  startTransition(() => {
    if (container.firstElementChild) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
