// The station's saved details and its live input password: the superuser's Station tab.
export { StationTab } from './components/station-tab';
