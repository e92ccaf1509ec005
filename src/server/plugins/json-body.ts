import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isWellFormedText } from '../../common/text.js';

export const INVALID_UTF8_MESSAGE = 'The request body is not valid UTF-8';
export const LONE_SURROGATE_MESSAGE =
  'The request body contains an unpaired surrogate escape (such as \\ud800), which is not text';

const badRequest = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/** Whether every string in a parsed body, keys included, is well-formed text. */
function wellFormed(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isWellFormedText(value);
  // JSON.parse already bounded the nesting; this only keeps a pathological body from the stack.
  if (value === null || typeof value !== 'object' || depth > 256) return true;
  if (Array.isArray(value)) return value.every((item) => wellFormed(item, depth + 1));
  return Object.entries(value).every(([key, item]) => isWellFormedText(key) && wellFormed(item, depth + 1));
}

/**
 * JSON bodies are decoded strictly, once for every route: Node's usual decoding turns bytes that are not
 * UTF-8 into U+FFFD, and JSON escapes can name a lone surrogate; either would be stored as text nobody
 * wrote. Both are refused with a 400 instead. Parsing itself stays Fastify's (prototype poisoning refused).
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      let text: string;
      try {
        text = strict.decode(body as Buffer);
      } catch {
        return done(badRequest(INVALID_UTF8_MESSAGE), undefined);
      }
      parseJson(request, text, (error, parsed) => {
        if (error) return done(error, undefined);
        if (!wellFormed(parsed)) return done(badRequest(LONE_SURROGATE_MESSAGE), undefined);
        done(null, parsed);
      });
    });
  },
  { name: 'json-body' },
);
