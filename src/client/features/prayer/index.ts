import { lazy } from 'react';

// Prayer requests: the home page's confidential prayer card and the staff's Prayer tab.
export { PrayerCard } from './components/prayer-card';
export { PRAYER_REQUESTS_PATH } from './api';
/** The staff tab, loaded with the admin panel: its schemas stay out of the listener's script. */
export const PrayerTab = lazy(() =>
  import('./components/prayer-tab').then((m) => ({ default: m.PrayerTab })),
);
/** The count of unread requests on the tab's name. */
export const PrayerUnreadBadge = lazy(() =>
  import('./components/prayer-tab').then((m) => ({ default: m.PrayerUnreadBadge })),
);
