import { lazy } from 'react';

// Today's programmes, in the station's time zone, and the staff's Schedule tab.
export { PROGRAMS_TODAY_PATH, programsTodayQuery, useProgramsToday } from './api';
export { ProgramsSection } from './components/programs-section';
/** The staff tab, loaded with the admin panel: its forms and schemas stay out of the listener's script. */
export const ScheduleTab = lazy(() =>
  import('./components/schedule-tab').then((m) => ({ default: m.ScheduleTab })),
);
