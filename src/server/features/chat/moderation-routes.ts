import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blockedWordsSchema,
  CHAT_MESSAGE_NOT_FOUND,
  moderationLogSchema,
  muteBodySchema,
  muteSchema,
  senderParamsSchema,
  staffChatMessageListSchema,
} from '../../../common/chat-moderation.js';
import { idParamsSchema, staffErrorResponses } from '../../../common/http.js';
import { CHAT_TOPICS } from './topics.js';
import {
  blockedWords,
  deleteMessage,
  messagesForStaff,
  moderationLog,
  muteSenderOf,
  saveBlockedWords,
  unmuteSender,
} from './service.js';

const staff = { access: 'staff' } as const;
const wordsSchema = z.object({ words: z.array(z.string()) });

/** The staff Chat tab (DESIGN.md section 7): recent messages, delete, hidden mute, blocked words, the record. */
export async function moderationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Nothing here is for a shared cache: who is muted and what was deleted stay with staff.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  api.get(
    '/messages',
    { config: staff, schema: { response: { 200: staffChatMessageListSchema, ...staffErrorResponses } } },
    async () => messagesForStaff(app.db),
  );

  api.delete(
    '/messages/:id',
    {
      config: staff,
      schema: { params: idParamsSchema, response: { 204: z.null(), ...staffErrorResponses } },
    },
    async (request, reply) => {
      const deleted = await deleteMessage(app.db, request.params.id, request.staffUser!.username);
      if (!deleted) return reply.code(404).send({ message: CHAT_MESSAGE_NOT_FOUND });
      await app.bus.publish(CHAT_TOPICS.deleted, { id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/mutes',
    {
      config: staff,
      schema: { body: muteBodySchema, response: { 201: muteSchema, ...staffErrorResponses } },
    },
    async (request, reply) => {
      const { messageId, minutes } = request.body;
      const mute = await muteSenderOf(app.db, messageId, minutes, request.staffUser!.username);
      return mute ? reply.code(201).send(mute) : reply.code(404).send({ message: CHAT_MESSAGE_NOT_FOUND });
    },
  );

  api.delete(
    '/mutes/:sender',
    {
      config: staff,
      schema: { params: senderParamsSchema, response: { 204: z.null(), ...staffErrorResponses } },
    },
    async (request, reply) => {
      const removed = await unmuteSender(app.db, request.params.sender, request.staffUser!.username);
      return removed
        ? reply.code(204).send(null)
        : reply.code(404).send({ message: 'That sender is not muted' });
    },
  );

  api.get(
    '/blocked-words',
    { config: staff, schema: { response: { 200: wordsSchema, ...staffErrorResponses } } },
    async () => ({ words: await blockedWords(app.db) }),
  );

  api.put(
    '/blocked-words',
    {
      config: staff,
      schema: { body: blockedWordsSchema, response: { 200: wordsSchema, ...staffErrorResponses } },
    },
    async (request) => {
      await saveBlockedWords(app.db, request.body.words, request.staffUser!.username);
      await app.bus.publish(CHAT_TOPICS.blockedWords, { at: Date.now() });
      return { words: request.body.words };
    },
  );

  api.get(
    '/moderation-log',
    { config: staff, schema: { response: { 200: moderationLogSchema, ...staffErrorResponses } } },
    async () => moderationLog(app.db),
  );
}
