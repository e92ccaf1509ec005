// Live chat: the home page's community chat card on the shared /ws socket.
export { ChatCard } from './components/chat-card';
