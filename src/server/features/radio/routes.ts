import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  nowPlayingSchema,
  radioStatsSchema,
  streamInfoSchema,
  type StreamInfo,
  type NowPlaying,
} from '../../../common/radio.js';
import type { LiveFigures } from './service.js';
import type { NowPlayingSource } from '../../radio/now-playing-source.js';

/**
 * A weak ETag over what a listener sees change (track, live, listeners): the stream clock moves every
 * moment but a 304 only tells the poller that nothing it shows has changed.
 */
export function nowPlayingEtag(np: NowPlaying): string {
  const { stream_clock: _clock, ...shown } = np;
  return `W/"${createHash('sha1').update(JSON.stringify(shown)).digest('base64url').slice(0, 20)}"`;
}

/** /api/radio: now playing (ETag, for the 15 s polling), stream address and its latency probe, live figures. */
export async function radioRoutes(
  app: FastifyInstance,
  opts: {
    source: () => NowPlayingSource;
    /** The address a listener is given: a relay, or what is on air (`origin` is the request's). */
    streamUrl: (origin: string) => string;
    /** Every bitrate's address. */
    streams: (origin: string) => StreamInfo['streams'];
    /** Listeners on every app instance. */
    listenersNow: () => number;
    liveFigures: () => Promise<LiveFigures>;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/radio/current',
    { schema: { response: { 200: nowPlayingSchema, 304: z.null() } }, compress: false },
    async (request, reply) => {
      const np = { ...opts.source().nowPlaying(), listeners: opts.listenersNow() };
      const etag = nowPlayingEtag(np);
      reply.header('ETag', etag).header('Cache-Control', 'no-cache');
      const given = request.headers['if-none-match'];
      if (given && given.split(',').some((tag) => tag.trim() === etag))
        return reply
          .code(304)
          .serializer(() => '')
          .send(null);
      return np;
    },
  );

  r.get(
    '/radio/stream-url',
    { schema: { response: { 200: streamInfoSchema } }, exposeHeadRoute: false },
    async (request, reply) => {
      const origin = app.linkOrigin(request, reply);
      return { streamUrl: opts.streamUrl(origin), streams: opts.streams(origin) };
    },
  );

  // The connection indicator's latency probe: answered at once, never cached.
  r.head('/radio/stream-url', async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache, no-store').code(200).send();
  });

  r.get('/radio/stats', { schema: { response: { 200: radioStatsSchema } } }, async () => {
    const { listeners, peakToday } = await opts.liveFigures();
    return { listeners, peakToday };
  });
}
