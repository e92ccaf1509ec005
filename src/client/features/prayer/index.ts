// Prayer requests: the home page's confidential prayer card.
export { PrayerCard } from './components/prayer-card';
export { PRAYER_REQUESTS_PATH } from './api';
