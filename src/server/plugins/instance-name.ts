import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const INSTANCE_HEADER = 'x-station-instance';

/**
 * Behind a proxy (STATION_ROLE broadcaster or web), every answer names the instance that gave it, the /ws
 * handshake included: whoever traces a request or a socket through the proxy sees where it landed. The name
 * is random at each start, so it tells nothing about the machine.
 */
export default fp(
  async function instanceName(app: FastifyInstance) {
    if (app.config.role === 'all') return;
    const name = randomBytes(4).toString('hex');
    app.addHook('onRequest', async (_request, reply) => {
      reply.header(INSTANCE_HEADER, name);
    });
    // The 101 answer to a WebSocket upgrade is written by ws, not by a Fastify reply.
    app.websocketServer.on('headers', (headers: string[]) => headers.push(`X-Station-Instance: ${name}`));
  },
  { name: 'instance-name', dependencies: ['@fastify/websocket'] },
);
