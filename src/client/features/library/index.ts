import { lazy } from 'react';

// The media library: the staff's Library tab (upload, analysis shown, tags, preview, artwork, delete).
/** The staff tab, loaded with the admin panel. */
export const LibraryTab = lazy(() =>
  import('./components/library-tab').then((m) => ({ default: m.LibraryTab })),
);
