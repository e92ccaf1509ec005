// Recording what the listener hears, and clips cut by the server.
export { RecorderSection } from './components/recorder-section';
