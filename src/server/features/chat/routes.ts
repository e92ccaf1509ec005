import type { FastifyInstance } from 'fastify';
import { chatMessageSchema, type Presence } from '../../../common/chat.js';
import { idParamsSchema } from '../../../common/http.js';
import { FloodLimit, localFloodLimit, sharedFloodLimit } from './flood-limit.js';
import { moderationRoutes } from './moderation-routes.js';
import { checkChatInput, openChat } from './service.js';
import { CHAT_TOPICS } from './topics.js';

/** Joins and leaves are summed up at most this often, so presence never floods browsers. */
const PRESENCE_EVERY_MS = 5_000;

/** Live chat on the /ws hub: history on connect, validated and limited messages, presence, moderation. */
export async function chatRoutes(app: FastifyInstance) {
  const chat = await openChat(app.db);
  const perConnection = new FloodLimit();
  // An address's messages may reach several instances: with REDIS_URL they are counted together.
  const perAddress = app.redis ? await sharedFloodLimit(app.redis) : localFloodLimit();

  app.realtime.onConnect(async (client) => {
    client.send({ type: 'chat_history', data: await chat.history(chat.senderOf(client).tag) });
    client.send({ type: 'presence', data: presence() });
  });

  app.realtime.on('chat', async (incoming, client) => {
    const input = checkChatInput(incoming.username, incoming.message);
    if (!input.ok) return client.send({ type: 'error', message: input.reason });
    const wait = Math.max(perConnection.take(`c${client.id}`), await perAddress.take(client.ip));
    if (wait > 0) {
      return client.send({
        type: 'error',
        message: `You are sending messages too quickly. Please wait ${Math.ceil(wait / 1000)} seconds.`,
      });
    }
    const posted = await chat.post(chat.senderOf(client), input);
    if (posted.outcome === 'refused') return client.send({ type: 'error', message: posted.reason });
    // A muted sender sees their message as if it were sent; nobody else does.
    if (posted.outcome === 'hidden') return client.send({ type: 'chat', data: posted.message });
    await app.bus.publish(CHAT_TOPICS.message, posted.message);
  });

  const unsubscribe = [
    app.bus.subscribe(CHAT_TOPICS.message, (payload) => {
      const parsed = chatMessageSchema.safeParse(payload);
      if (parsed.success) app.realtime.broadcast({ type: 'chat', data: parsed.data });
    }),
    app.bus.subscribe(CHAT_TOPICS.deleted, (payload) => {
      const parsed = idParamsSchema.safeParse(payload);
      if (parsed.success) app.realtime.broadcast({ type: 'chat_deleted', data: parsed.data });
    }),
    app.bus.subscribe(CHAT_TOPICS.blockedWords, () => {
      chat
        .reloadBlockedWords()
        .catch((error: unknown) => app.log.warn({ err: error }, 'blocked words not reloaded'));
    }),
  ];

  await app.register(moderationRoutes, { prefix: '/api/chat' });

  const presence = (): Presence => ({
    listening: app.listenersNow(),
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
    app.realtime.broadcastState({ type: 'presence', data: now });
  }, PRESENCE_EVERY_MS);
  timer.unref();

  app.addHook('onClose', async () => {
    clearInterval(timer);
    for (const u of unsubscribe) u();
  });
}
