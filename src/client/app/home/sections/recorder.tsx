export { RecorderSection as default } from '../../../features/recorder';
