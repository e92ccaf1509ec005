import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { programSchema } from '../../../common/programs.js';
import { listTodaysPrograms } from './service.js';

export async function programRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/programs/today', { schema: { response: { 200: z.array(programSchema) } } }, async () =>
      listTodaysPrograms(app.db, app.station().timeZone),
    );
}
