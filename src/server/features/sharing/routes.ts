import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from '../../plugins/redis.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../common/http.js';
import { shareEventBodySchema, viralStatsSchema } from '../../../common/sharing.js';
import type { LiveFigures } from '../radio/service.js';
import { recordShare, viralStats } from './service.js';

/** Shares are counted (no personal data), and the 'Viral Impact' card reads its figures here. */
export async function sharingRoutes(
  app: FastifyInstance,
  opts: { liveFigures: () => Promise<LiveFigures>; perHour?: number },
) {
  await app.register(rateLimit, { global: false, ...rateLimitStore(app.redis, 'sharing') });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/share-events',
    {
      config: { rateLimit: { max: opts.perHour ?? 30, timeWindow: 60 * 60_000 } },
      schema: {
        body: shareEventBodySchema,
        response: { 201: z.object({ message: z.string() }), 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      await recordShare(app.db, request.body.channel);
      return reply.code(201).send({ message: 'Share counted' });
    },
  );

  api.get('/viral-stats', { schema: { response: { 200: viralStatsSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return viralStats(app.db, await opts.liveFigures(), { timeZone: app.station().timeZone });
  });
}
