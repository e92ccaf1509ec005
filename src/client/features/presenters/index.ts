import { lazy } from 'react';

// A presenter's own area: their encoder's settings, their programmes ahead, their own source password.
/** The presenter's only tab, loaded with the admin panel. */
export const MyBroadcastTab = lazy(() =>
  import('./components/my-broadcast-tab').then((m) => ({ default: m.MyBroadcastTab })),
);
