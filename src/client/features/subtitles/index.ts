import { lazy } from 'react';

// Subtitles: the listener's overlay (loaded only once subtitles are turned on) and the staff's Captions tab.
export { SubtitleTopDock } from './top-dock';
/** The overlay and its schemas stay out of the home page's first script until subtitles are enabled. */
export const SubtitleOverlay = lazy(() =>
  import('./components/subtitle-overlay').then((m) => ({ default: m.SubtitleOverlay })),
);
/** The staff tab, loaded with the admin panel. */
export const CaptionsTab = lazy(() =>
  import('./components/captions-tab').then((m) => ({ default: m.CaptionsTab })),
);
