import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../common/http.js';
import { streamSourceSchema } from '../../../common/radio.js';
import { parseStreamSource } from '../../radio/external-source.js';
import { saveStreamSource } from '../settings/service.js';
import { streamSourceProblem } from './stream-source-check.js';
import { requestOrigin } from '../../plugins/request-host.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The Station tab's stream source (superuser): the built-in broadcaster or a station elsewhere, put on
 * air at once, once its address has answered with audio.
 */
export async function streamSourceRoutes(
  app: FastifyInstance,
  opts: { current: () => string | undefined; apply: (value: string | undefined) => Promise<void> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/stream-source',
    { config: { access: 'superuser' }, schema: { response: { 200: streamSourceSchema, ...errors } } },
    async () => ({ streamSource: opts.current() ?? null }),
  );

  api.put(
    '/admin/stream-source',
    {
      config: { access: 'superuser' },
      schema: { body: streamSourceSchema, response: { 200: streamSourceSchema, ...errors } },
    },
    async (request, reply) => {
      const { streamSource } = request.body;
      if (streamSource) {
        const own = new URL(requestOrigin(request)).origin;
        if (new URL(parseStreamSource(streamSource).streamUrl).origin === own)
          return reply.code(400).send({ message: "Not saved: that is this station's own address" });
        const problem = await streamSourceProblem(streamSource);
        if (problem) return reply.code(400).send({ message: `Not saved: ${problem}` });
      }
      await saveStreamSource(app.db, streamSource);
      await opts.apply(streamSource ?? undefined);
      return { streamSource };
    },
  );
}
