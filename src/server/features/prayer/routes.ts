import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../common/http.js';
import {
  prayerIdParamsSchema,
  prayerListQuerySchema,
  prayerRequestBodySchema,
  prayerRequestListSchema,
  prayerRequestSchema,
  PRAYER_REQUEST_NOT_FOUND,
} from '../../../common/prayer.js';
import { deletePrayerRequest, listPrayerRequests, markPrayedFor, submitPrayerRequest } from './service.js';

const staffErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/** Prayer requests: anyone may send one; only signed-in staff read them (there is no public read). */
export async function prayerRoutes(app: FastifyInstance, opts: { perHour?: number } = {}) {
  await app.register(rateLimit, { global: false });
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
        response: { 200: prayerRequestListSchema, ...staffErrors },
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
      schema: { params: prayerIdParamsSchema, response: { 200: prayerRequestSchema, ...staffErrors } },
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
      schema: { params: prayerIdParamsSchema, response: { 204: z.null(), ...staffErrors } },
    },
    async (request, reply) => {
      const deleted = await deletePrayerRequest(app.db, request.params.id);
      return deleted
        ? reply.code(204).send(null)
        : reply.code(404).send({ message: PRAYER_REQUEST_NOT_FOUND });
    },
  );
}
