import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DISK_FULL } from '../../common/http.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** When a request last failed because a disk was full (/readyz reports it for a while). */
    lastDiskFullAt(): number | undefined;
  }
}

/** PostgreSQL's disk_full: its data directory has no room for the write (PGlite raises the same). */
const POSTGRES_DISK_FULL = '53100';

/**
 * A write refused for want of space: the database's (SQLSTATE 53100) or a file's (ENOSPC), however deep the
 * driver or the ORM wrapped it.
 */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === POSTGRES_DISK_FULL || code === 'ENOSPC') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Error answers: validation -> 400 with a readable message, client errors keep theirs, a full disk -> 507
 * saying so, other 5xx never leak internals.
 */
export default fp(async function errors(app: FastifyInstance) {
  let lastDiskFullAt: number | undefined;
  app.decorate('lastDiskFullAt', () => lastDiskFullAt);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') || error.validationContext;
      const detail = first?.message ?? 'is invalid';
      return reply.code(400).send({ message: field ? `${field}: ${detail}` : detail });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: clientErrorMessage(error) });
    }
    if (isDiskFull(error)) {
      lastDiskFullAt = Date.now();
      request.log.error({ err: error }, 'disk full: a write was refused');
      return reply.code(507).send({ message: DISK_FULL });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
});

/** The words a 4xx answer carries: Fastify's own codes said plainly, others as thrown. */
export function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    default:
      return error.message.startsWith('Body is not valid JSON') || error.name === 'SyntaxError'
        ? 'The request body is not valid JSON'
        : error.message;
  }
}
