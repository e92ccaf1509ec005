// Today's programmes, in the station's time zone.
export { PROGRAMS_TODAY_PATH, programsTodayQuery, useProgramsToday } from './api';
export { ProgramsSection } from './components/programs-section';
