import { lazy, memo, Suspense, useEffect, useRef, type ComponentType, type RefObject } from 'react';

/** How far below the screen a section starts loading, so it is ready by the time it scrolls in. */
const LOAD_MARGIN = '600px 0px';

/**
 * Resolves once the element is near the screen. Where there is nothing to watch (at the build's prerender,
 * or the page was not prerendered, so the section is not on it yet) or no IntersectionObserver, at once.
 */
function nearScreen(selector: string): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve(); // the build's prerender
  const element = document.querySelector(selector);
  if (!element || typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(element);
  });
}

/** Waits between tries of a section's code that did not arrive: the station may be restarting. */
const RETRY_AFTER_MS = [2_000, 5_000, 15_000, 60_000];

const whenOnline = () =>
  new Promise<void>((resolve) => {
    if (navigator.onLine !== false) resolve();
    else window.addEventListener('online', () => resolve(), { once: true });
  });

/**
 * A section's code, tried again (once the browser is online) until it arrives. A failed load must not reach
 * React: with nothing to catch it, React takes the whole page down, the player and its connection indicator
 * included. On a slow phone the sections' code is still on its way seconds after the page shows, so going
 * offline then did exactly that. While it waits the section keeps its served HTML.
 */
async function loadPatiently<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch {
      await whenOnline();
      const wait = RETRY_AFTER_MS[Math.min(attempt, RETRY_AFTER_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Marks the section once its code runs (`data-loaded`): the end-to-end specs wait for it. */
function Loaded({ section }: { section: RefObject<HTMLDivElement | null> }) {
  useEffect(() => section.current?.setAttribute('data-loaded', ''), [section]);
  return null;
}

/**
 * A part of the home page whose code loads when it comes near the screen. On the prerendered page its
 * HTML is already there: React leaves it as served until the code arrives, then hydrates it. Memoised
 * without props, so nothing re-renders the section while it waits (which would make React drop the
 * served HTML for the empty fallback).
 */
export function deferredSection(name: string, load: () => Promise<{ default: ComponentType }>) {
  const Section = lazy(() => nearScreen(`[data-section="${name}"]`).then(() => loadPatiently(load)));
  return memo(function DeferredSection() {
    const ref = useRef<HTMLDivElement>(null);
    return (
      <div ref={ref} data-section={name}>
        <Suspense fallback={null}>
          <Section />
          <Loaded section={ref} />
        </Suspense>
      </div>
    );
  });
}
