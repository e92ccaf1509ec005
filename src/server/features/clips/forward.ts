import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answer headers worth handing on from the broadcaster. */
const PASSED_ON = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'content-disposition',
  'cache-control',
  'retry-after',
];

/**
 * A web instance's clip request, made of the broadcaster (which holds the recent audio and the clip files):
 * the listener's address rides in X-Forwarded-For (the broadcaster's TRUST_PROXY names the web instances).
 */
export async function askBroadcaster(
  request: FastifyRequest,
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown },
): Promise<Response> {
  const headers: Record<string, string> = {
    'x-forwarded-for': request.ip,
    'x-forwarded-proto': request.protocol,
  };
  if (request.headers.range) headers.range = request.headers.range;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(url, {
    method: init.method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** Sends the broadcaster's answer on as it came (status, the headers that matter, the body streamed). */
export function passOn(response: Response, reply: FastifyReply) {
  reply.code(response.status);
  for (const name of PASSED_ON) {
    const value = response.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
}
