// Engine tests store through the same features the station uses.
export { radioStorage } from '../features/radio/service.js';
