import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AddressInfo } from 'node:net';
import { errorBodySchema } from '../../../common/http.js';
import { STREAM_SOURCE_REFUSED, streamSourceSchema, streamSourceStateSchema } from '../../../common/radio.js';
import {
  allowPrivateNetworkSource,
  saveAllowPrivateNetworkSource,
  saveStreamSource,
} from '../settings/service.js';
import { requestOrigin } from '../../plugins/request-host.js';
import { streamSourceProblem, type SourceAddressPolicy } from './stream-source-check.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The Station tab's stream source (superuser): the built-in broadcaster or a station elsewhere, put on
 * air at once, once its address has answered with audio. The station's own addresses are refused in every
 * spelling, and private networks unless staff allow them; every refusal gets the same answer (the reason
 * goes to the log), so the check cannot be used to learn what answers inside the station's network.
 */
export async function streamSourceRoutes(
  app: FastifyInstance,
  opts: { current: () => string | undefined; apply: (value: string | undefined) => Promise<void> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const state = async () => ({
    streamSource: opts.current() ?? null,
    allowPrivateNetwork: await allowPrivateNetworkSource(app.db),
  });

  api.get(
    '/admin/stream-source',
    { config: { access: 'superuser' }, schema: { response: { 200: streamSourceStateSchema, ...errors } } },
    state,
  );

  api.put(
    '/admin/stream-source',
    {
      config: { access: 'superuser' },
      schema: { body: streamSourceSchema, response: { 200: streamSourceStateSchema, ...errors } },
    },
    async (request, reply) => {
      const { streamSource } = request.body;
      const allowPrivateNetwork =
        request.body.allowPrivateNetwork ?? (await allowPrivateNetworkSource(app.db));
      if (streamSource) {
        const listening = app.server.address() as AddressInfo | null;
        const policy: SourceAddressPolicy = {
          allowPrivateNetwork,
          ownOrigins: [requestOrigin(request), ...(app.config.publicUrl ? [app.config.publicUrl] : [])],
          ownPorts: [app.config.port, ...(listening?.port ? [listening.port] : [])],
        };
        const problem = await streamSourceProblem(streamSource, policy);
        if (problem) {
          request.log.warn({ streamSource, problem }, 'stream source refused');
          return reply.code(400).send({ message: STREAM_SOURCE_REFUSED });
        }
      }
      await saveAllowPrivateNetworkSource(app.db, allowPrivateNetwork);
      await saveStreamSource(app.db, streamSource);
      await opts.apply(streamSource ?? undefined);
      return { streamSource, allowPrivateNetwork };
    },
  );
}
