import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The origin for the absolute links of this answer: PUBLIC_URL, else the request's own (and the answer
     * is then kept from shared caches, see docs/decisions/021-links-and-the-request-host.md).
     */
    linkOrigin(request: FastifyRequest, reply: FastifyReply): string;
  }
}

/** A host name, IPv4 or [IPv6] address, with an optional port: what a Host header may hold. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

export function isValidHost(host: string): boolean {
  const match = HOST.exec(host);
  if (!match || host.length > 255) return false;
  const [, name = '', port] = match;
  if (port !== undefined && Number(port) > 65535) return false;
  if (name.startsWith('[') && isIP(name.slice(1, -1)) !== 6) return false;
  try {
    new URL(`http://${host}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The origin the request reached, as its sender named it: its (checked) Host, else, for an HTTP/1.0
 * request without one, the address it connected to.
 */
export function requestOrigin(request: FastifyRequest): string {
  // X-Forwarded-Proto counts only from a trusted proxy; anything but https there is taken as http.
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  if (request.host) return `${protocol}://${request.host}`;
  const { localAddress = '127.0.0.1', localPort } = request.socket;
  const address = isIP(localAddress) === 6 ? `[${localAddress}]` : localAddress;
  return `${protocol}://${address}${localPort ? `:${localPort}` : ''}`;
}

/** 'public, max-age=300' -> 'private, max-age=300': the browser may keep it, no shared cache may. */
export function privateCacheControl(value: unknown): string {
  const directives = String(value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !/^(public|private|s-maxage=\d+)$/i.test(part));
  if (!directives.length) directives.push('no-cache');
  return ['private', ...directives].join(', ');
}

const withVaryHost = (value: unknown): string => {
  const names = String(value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return names.some((name) => name.toLowerCase() === 'host' || name === '*')
    ? names.join(', ')
    : [...names, 'Host'].join(', ');
};

/**
 * The request's Host: an HTTP/0.9 request or a malformed Host (or X-Forwarded-Host from a trusted proxy) is
 * refused with a 400 before any route; `app.linkOrigin` gives the origin absolute links are built on.
 */
export default fp(
  async function requestHost(app: FastifyInstance, opts: { publicUrl?: string }) {
    const publicOrigin = opts.publicUrl?.replace(/\/+$/, '');
    // Answers whose links carry the request's own host: no shared cache may keep them (onSend below).
    const ownHost = new WeakSet<FastifyReply>();

    app.addHook('onRequest', async (request, reply) => {
      if (request.raw.httpVersionMajor < 1) {
        return reply
          .code(400)
          .header('Connection', 'close')
          .send({ message: 'HTTP/0.9 requests are not supported: use HTTP/1.0 or later' });
      }
      // Only HTTP/1.0 may leave the Host out; a Host that is there, even empty, must name a host.
      const given = request.headers.host !== undefined || request.host !== '';
      if (given && !isValidHost(request.host)) {
        const header = request.headers.host === request.host ? 'Host' : 'X-Forwarded-Host';
        return reply.code(400).send({ message: `The ${header} header is not a valid host name` });
      }
    });

    app.decorate('linkOrigin', (request: FastifyRequest, reply: FastifyReply) => {
      if (publicOrigin) return publicOrigin;
      ownHost.add(reply);
      return requestOrigin(request);
    });

    app.addHook('onSend', (_request, reply, _payload, done) => {
      if (ownHost.has(reply)) {
        reply.header('Cache-Control', privateCacheControl(reply.getHeader('Cache-Control')));
        reply.header('Vary', withVaryHost(reply.getHeader('Vary')));
      }
      done();
    });
  },
  { name: 'request-host' },
);
