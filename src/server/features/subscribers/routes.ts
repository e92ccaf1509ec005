import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { subscriberListSchema } from '../../../common/subscribers.js';
import { listSubscribers, subscribersCsv } from './service.js';

/** The Subscribers tab (staff only) and its CSV export. */
export async function subscriberRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

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
