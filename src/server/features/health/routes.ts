import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { livenessSchema, readinessSchema } from '../../../common/health.js';
import { readiness } from './service.js';

/**
 * For proxies and orchestrators: /healthz answers while the process lives (restart it when not); /readyz
 * when it can serve (send it traffic): the database answers, the disk takes writes and, on a web instance,
 * the broadcaster is heard. Redis away leaves it ready, degraded (it serves its own view).
 */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Asked every few seconds by each proxy: logged only when something is wrong.
  const quiet = { logLevel: 'warn' as const };

  r.get('/healthz', { ...quiet, schema: { response: { 200: livenessSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { alive: true as const };
  });

  r.get(
    '/readyz',
    { ...quiet, schema: { response: { 200: readinessSchema, 503: readinessSchema } } },
    async (_request, reply) => {
      const result = await readiness({
        db: app.db,
        bus: app.config.redisUrl ? app.bus : undefined,
        broadcasterHeartbeatAge: app.broadcasterFeed && (() => app.broadcasterFeed!.heartbeatAge()),
        dataDir: app.config.dataDir === 'memory://' ? undefined : app.config.dataDir,
        lastDiskFullAt: app.lastDiskFullAt,
      });
      reply.header('Cache-Control', 'no-store');
      if (!result.ready) app.log.warn({ reason: result.reason }, 'not ready');
      return reply.code(result.ready ? 200 : 503).send(result);
    },
  );
}
