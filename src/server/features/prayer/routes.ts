import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from '../../plugins/redis.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, staffErrorResponses } from '../../../common/http.js';
import {
  prayerIdParamsSchema,
  prayerListQuerySchema,
  prayerRequestBodySchema,
  prayerRequestListSchema,
  prayerRequestSchema,
  PRAYER_REQUEST_NOT_FOUND,
  markReadBodySchema,
  unreadCountSchema,
} from '../../../common/prayer.js';
import {
  deletePrayerRequest,
  listPrayerRequests,
  markPrayedFor,
  markRead,
  submitPrayerRequest,
  unreadCount,
} from './service.js';

/** Prayer requests: anyone may send one; only signed-in staff read them (there is no public read). */
export async function prayerRoutes(app: FastifyInstance, opts: { perHour?: number } = {}) {
  await app.register(rateLimit, { global: false, ...rateLimitStore(app.redis, 'prayer') });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/prayer-requests',
    {
      config: { rateLimit: { max: opts.perHour ?? 10, timeWindow: 60 * 60_000 } },
      schema: {
        body: prayerRequestBodySchema,
        response: { 201: z.object({ message: z.string() }), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      await submitPrayerRequest(app.db, request.body);
      // The answer carries no id and no text: nothing sent here can be read back by anyone but staff.
      return reply.code(201).send({ message: 'Prayer request received' });
    },
  );

  api.get(
    '/prayer-requests',
    {
      config: { access: 'staff' },
      schema: {
        querystring: prayerListQuerySchema,
        response: { 200: prayerRequestListSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return listPrayerRequests(app.db, request.query.status);
    },
  );

  api.post(
    '/prayer-requests/:id/prayed',
    {
      config: { access: 'staff' },
      schema: {
        params: prayerIdParamsSchema,
        response: { 200: prayerRequestSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const prayed = await markPrayedFor(app.db, request.params.id, request.staffUser!.username);
      return prayed ?? reply.code(404).send({ message: PRAYER_REQUEST_NOT_FOUND });
    },
  );

  api.delete(
    '/prayer-requests/:id',
    {
      config: { access: 'staff' },
      schema: { params: prayerIdParamsSchema, response: { 204: z.null(), ...staffErrorResponses } },
    },
    async (request, reply) => {
      const deleted = await deletePrayerRequest(app.db, request.params.id);
      return deleted
        ? reply.code(204).send(null)
        : reply.code(404).send({ message: PRAYER_REQUEST_NOT_FOUND });
    },
  );

  api.get(
    '/prayer-requests/unread-count',
    { config: { access: 'staff' }, schema: { response: { 200: unreadCountSchema, ...staffErrorResponses } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return unreadCount(app.db);
    },
  );

  api.post(
    '/prayer-requests/read',
    {
      config: { access: 'staff' },
      schema: { body: markReadBodySchema, response: { 200: unreadCountSchema, ...staffErrorResponses } },
    },
    async (request) => markRead(app.db, new Date(request.body.upTo)),
  );
}
