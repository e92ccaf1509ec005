import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stationInfoSchema } from '../../../common/station.js';

export async function stationRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/station', { schema: { response: { 200: stationInfoSchema } } }, async () => app.station());
}
