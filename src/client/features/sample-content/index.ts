// Sample content: the admin panel's notice that a fresh station shows invented programmes and items.
export { SampleNotice } from './components/sample-notice';
