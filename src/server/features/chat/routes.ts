import type { FastifyInstance } from 'fastify';
import { chatMessageSchema, type Presence } from '../../../common/chat.js';
import { FloodLimit } from './flood-limit.js';
import { chatHistory, checkChatInput, postChatMessage } from './service.js';

/** The bus topic that carries chat messages between app instances. */
const CHAT_TOPIC = 'chat';
/** Joins and leaves are summed up at most this often, so presence never floods browsers. */
const PRESENCE_EVERY_MS = 5_000;

/** Live chat on the /ws hub: history on connect, validated and limited messages, presence. */
export async function chatRoutes(app: FastifyInstance) {
  const perConnection = new FloodLimit();
  const perAddress = new FloodLimit();

  app.realtime.onConnect(async (client) => {
    client.send({ type: 'chat_history', data: await chatHistory(app.db) });
    client.send({ type: 'presence', data: presence() });
  });

  app.realtime.on('chat', async (incoming, client) => {
    const input = checkChatInput(incoming.username, incoming.message);
    if (!input.ok) return client.send({ type: 'error', message: input.reason });
    const wait = Math.max(perConnection.take(`c${client.id}`), perAddress.take(client.ip));
    if (wait > 0) {
      return client.send({
        type: 'error',
        message: `You are sending messages too quickly. Please wait ${Math.ceil(wait / 1000)} seconds.`,
      });
    }
    const message = await postChatMessage(app.db, input);
    await app.bus.publish(CHAT_TOPIC, message);
  });

  const unsubscribe = app.bus.subscribe(CHAT_TOPIC, (payload) => {
    const parsed = chatMessageSchema.safeParse(payload);
    if (parsed.success) app.realtime.broadcast({ type: 'chat', data: parsed.data });
  });

  const presence = (): Presence => ({
    listening: app.nowPlaying.nowPlaying().listeners,
    chatting: app.realtime.clientCount(),
  });
  let last = '';
  const timer = setInterval(() => {
    perConnection.sweep();
    perAddress.sweep();
    const now = presence();
    const key = JSON.stringify(now);
    if (key === last) return;
    last = key;
    app.realtime.broadcast({ type: 'presence', data: now });
  }, PRESENCE_EVERY_MS);
  timer.unref();

  app.addHook('onClose', async () => {
    clearInterval(timer);
    unsubscribe();
  });
}
