import { lazy } from 'react';

// Featured content: the home page's 'Featured Content' cards and the staff's Content tab, one list.
export { FEATURED_CONTENT_PATH, featuredContentQuery, useFeaturedContent } from './api/featured-content';
export { FeaturedSection } from './components/featured-section';
/** The staff tab, loaded with the admin panel: its forms and checks stay out of the listener's script. */
export const ContentTab = lazy(() =>
  import('./components/content-tab').then((m) => ({ default: m.ContentTab })),
);
