// Newsletter subscribers: the staff's Subscribers tab.
export { SubscribersTab } from './components/subscribers-tab';
