export { ProgramsSection as default } from '../../../features/programs';
