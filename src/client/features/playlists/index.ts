import { lazy } from 'react';

// Playlists: the staff's Playlists tab (items from the library, order, rotation weight and rules).
/** The staff tab, loaded with the admin panel. */
export const PlaylistsTab = lazy(() =>
  import('./components/playlists-tab').then((m) => ({ default: m.PlaylistsTab })),
);
