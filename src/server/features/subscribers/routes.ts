import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { z } from 'zod';
import { subscribeBodySchema, subscriberListSchema } from '../../../common/subscribers.js';
import { listSubscribers, subscribe, subscribersCsv } from './service.js';

/** The newsletter: anyone subscribes; the Subscribers tab (staff only) and its CSV export. */
export async function subscriberRoutes(app: FastifyInstance, opts: { perHour?: number } = {}) {
  await app.register(rateLimit, { global: false });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/email-subscribe',
    {
      config: { rateLimit: { max: opts.perHour ?? 10, timeWindow: 60 * 60_000 } },
      schema: {
        body: subscribeBodySchema,
        response: { 201: z.object({ message: z.string() }), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      await subscribe(app.db, request.body);
      return reply.code(201).send({ message: 'Subscribed' });
    },
  );

  api.get(
    '/email-subscribers',
    {
      config: { access: 'staff' },
      schema: { response: { 200: subscriberListSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async () => listSubscribers(app.db),
  );

  api.get('/email-subscribers.csv', { config: { access: 'staff' } }, async (_request, reply) => {
    const date = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="subscribers-${date}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(await subscribersCsv(app.db));
  });
}
