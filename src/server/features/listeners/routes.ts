import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { listenerStatsQuerySchema, listenerStatsSchema } from '../../../common/listeners.js';
import { listenerFigures } from './service.js';

/** GET /api/admin/listeners?days=7|30: the Listeners tab's charts (staff only). */
export async function listenerRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/admin/listeners',
    {
      config: { access: 'staff' },
      schema: {
        querystring: listenerStatsQuerySchema,
        response: { 200: listenerStatsSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) =>
      listenerFigures(app.db, { days: request.query.days, timeZone: app.station().timeZone }),
  );
}
