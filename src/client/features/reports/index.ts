export { ReportsTab } from './components/reports-tab';
