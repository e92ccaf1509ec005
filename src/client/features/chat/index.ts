import { lazy } from 'react';

// Live chat: the home page's community chat card on the shared /ws socket, and the staff's Chat tab.
export { ChatCard } from './components/chat-card';
/** The staff tab, loaded with the admin panel: its schemas stay out of the listener's script. */
export const ChatTab = lazy(() => import('./components/chat-tab').then((m) => ({ default: m.ChatTab })));
