import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { staffErrorResponses } from '../../../common/http.js';
import { UPCOMING_PATH, upcomingQuerySchema, upcomingSchema } from '../../../common/programs.js';
import type { OnAir } from './service.js';

/** The Schedule tab's "Next 24 hours": what will air, item by item, with problems flagged before they happen. */
export async function onAirRoutes(app: FastifyInstance, opts: { onAir: OnAir<unknown> }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    UPCOMING_PATH,
    {
      config: { access: 'staff' },
      schema: { querystring: upcomingQuerySchema, response: { 200: upcomingSchema, ...staffErrorResponses } },
    },
    async (request) => opts.onAir.upcoming(request.query.hours),
  );
}
