/** SPEC.md section 9: layout, notification and listener-page constants, named as the spec names them. */

/** Below this width the header shows the menu button and dropdown. */
export const MOBILE_BREAKPOINT = 768;

/** At most one toast is visible at a time. */
export const TOAST_LIMIT = 1;
/** Default auto-dismiss. */
export const TOAST_DURATION_MS = 5000;
/** Toasts are swiped right to dismiss past this distance. */
export const TOAST_SWIPE_DIRECTION = 'right';
export const TOAST_SWIPE_THRESHOLD = 50;
/** How long a dismissed toast is kept before it is removed from state. */
export const TOAST_REMOVE_DELAY = 1_000_000;
/** The hotkey that focuses the notification area. */
export const TOAST_HOTKEY = ['F8'];

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const SLIDER_DEFAULTS = { min: 0, max: 100, step: 1 } as const;

/** Polling and prefetch (SPEC.md sections 4 and 9). */
export const PROGRAMS_REFETCH_MS = 30_000;
/** SPEC.md section 7: the 'Viral Impact' figures are refreshed every 30 s. */
export const VIRAL_STATS_REFETCH_MS = 30_000;
export const PREFETCH_FRESHNESS_MS = { featured: 2 * 60_000, programs: 5 * 60_000 } as const;
/** Debounce after each trigger before the featured list and today's programs are prefetched. */
export const PREFETCH_DELAY_MS = {
  mouseMove: 2000,
  scroll: 1000,
  focus: 0,
  online: 500,
  load: 3000,
} as const;

/** Skeletons while loading. */
export const PROGRAM_SKELETON_COUNT = 4;
export const FEATURED_SKELETON_COUNT = 2;

/** Install banner. */
export const INSTALL_BANNER_DELAY_MS = 30_000;
export const INSTALL_DISMISSAL_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_DISMISSED_KEY = 'pwa-install-dismissed';

export const FOOTER_COPYRIGHT_YEAR = 2025;
