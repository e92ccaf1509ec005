import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import {
  sampleContentSchema,
  sampleRemovalBodySchema,
  sampleRemovalSchema,
} from '../../../common/sample-content.js';
import { SCHEDULE_CHANGED_TOPIC } from '../programs/service.js';
import { removeSample, sampleContent } from './service.js';

const staffErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** The Admin panel's sample-content notice: how much is left, and its removal (staff only). */
export async function sampleContentRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { access: 'staff' } as const;

  api.get(
    '/admin/sample-content',
    { config: staff, schema: { response: { 200: sampleContentSchema, ...staffErrors } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return sampleContent(app.db);
    },
  );

  api.post(
    '/admin/sample-content/removal',
    {
      config: staff,
      schema: { body: sampleRemovalBodySchema, response: { 200: sampleRemovalSchema, ...staffErrors } },
    },
    async () => {
      const removed = await removeSample(app.db);
      // What reads the schedule (on-air, on every instance) drops the removed programmes at once.
      if (removed.programs > 0) await app.bus.publish(SCHEDULE_CHANGED_TOPIC, { at: Date.now() });
      return { removed };
    },
  );
}
