import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Security headers with a strict Content-Security-Policy: only the station's own origin runs code. */
export default fp(async function security(
  app: FastifyInstance,
  opts: { extraMediaOrigins?: () => string[] },
) {
  // The relays and (on a web instance) the broadcaster players are sent to.
  const media = () => (opts.extraMediaOrigins?.() ?? []).join(' ');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix primitives position popovers with style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        // blob: for Media Source playback; data: for the player library's silent placeholder that keeps
        // the play button working between streams.
        mediaSrc: ["'self'", 'blob:', 'data:', media],
        connectSrc: ["'self'", media],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The stream and artwork are meant to be embedded and relayed by other sites.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
});
