// Listener figures measured by the broadcaster: the Listeners tab.
export { ListenersTab } from './components/listeners-tab';
