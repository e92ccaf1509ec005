import { lazy } from 'react';

/** The staff's Newsletter tab, loaded with the admin panel: none of it reaches a listener's script. */
export const NewsletterTab = lazy(() =>
  import('./components/newsletter-tab').then((m) => ({ default: m.NewsletterTab })),
);
