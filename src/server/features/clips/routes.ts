import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from '../../plugins/redis.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clipPagePath,
  clipParamsSchema,
  clipSchema,
  clipShareResponseSchema,
  createClipBodySchema,
  createdClipSchema,
} from '../../../common/clips.js';
import { errorBodySchema } from '../../../common/http.js';
import { clipFileName } from '../../../common/recorder.js';
import { renderClipPage } from './clip-page.js';
import { askBroadcaster, passOn } from './forward.js';
import { ClipUnavailableError, type ClipAudioSource } from './cut.js';
import {
  clipFilePath,
  countDownload,
  countShare,
  createClip,
  findClip,
  prepareClipsDir,
  sessionTag,
  toClip,
} from './service.js';

export interface ClipRoutesOptions {
  dataDir: string;
  /** The radio's recent audio; null when this station plays an external stream. */
  audio: () => ClipAudioSource | null;
  /** Clips one address may create per minute. */
  perMinute?: number;
  /**
   * A web instance (STATION_ROLE=web): the broadcaster cuts the clips and keeps their files, so creating
   * one and fetching its audio are asked of it; the rest is read from the shared database here.
   */
  broadcasterUrl?: string;
}

const NOT_FOUND = { message: 'Clip not found' };

/**
 * Server-cut clips: POST /api/clips cuts the seconds a listener heard from the broadcaster's recent
 * frames; GET /api/clips/:id, GET /api/clips/:id/audio (download counted), POST /api/clips/:id/share
 * (share counted) and the clip's page at /clips/:id.
 */
export async function clipRoutes(app: FastifyInstance, opts: ClipRoutesOptions) {
  const { dir, cleanup } = prepareClipsDir(opts.dataDir);
  app.addHook('onClose', async () => cleanup());
  await app.register(rateLimit, { global: false, ...rateLimitStore(app.redis, 'clips') });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (request: FastifyRequest, reply: FastifyReply) => app.linkOrigin(request, reply);

  r.post(
    '/api/clips',
    {
      config: { rateLimit: { max: opts.perMinute ?? 10, timeWindow: 60_000 } },
      schema: {
        body: createClipBodySchema,
        response: { 201: createdClipSchema, 409: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (opts.broadcasterUrl) {
        const response = await askBroadcaster(request, `${opts.broadcasterUrl}/api/clips`, {
          method: 'POST',
          body: request.body,
        });
        const created = response.status === 201 ? createdClipSchema.safeParse(await response.json()) : null;
        if (!created) return passOn(response, reply);
        if (!created.success) throw new Error('The broadcaster answered a clip in an unknown shape');
        // The page is on this instance's address, as the listener knows it.
        return reply
          .code(201)
          .send({ ...created.data, shareUrl: origin(request, reply) + clipPagePath(created.data.id) });
      }
      const source = opts.audio();
      if (!source) return reply.code(503).send({ message: 'Clips are not available for this stream' });
      try {
        const row = await createClip(app.db, dir, source, {
          ...request.body,
          sessionId: sessionTag(request.ip),
          stationName: app.station().name,
        });
        const clip = toClip(row);
        return reply.code(201).send({
          id: clip.id,
          title: clip.title,
          audioUrl: clip.audioUrl,
          shareUrl: origin(request, reply) + clip.shareUrl,
          duration: clip.duration,
        });
      } catch (error) {
        if (error instanceof ClipUnavailableError) return reply.code(409).send({ message: error.message });
        throw error;
      }
    },
  );

  r.get(
    '/api/clips/:id',
    { schema: { params: clipParamsSchema, response: { 200: clipSchema, 404: errorBodySchema } } },
    async (request, reply) => {
      const row = await findClip(app.db, request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const clip = toClip(row);
      return { ...clip, shareUrl: origin(request, reply) + clip.shareUrl };
    },
  );

  r.get(
    '/api/clips/:id/audio',
    {
      schema: {
        params: clipParamsSchema,
        querystring: z.object({ download: z.enum(['1', 'true']).optional() }),
      },
    },
    async (request, reply) => {
      if (opts.broadcasterUrl) {
        const query = request.query.download ? `?download=${request.query.download}` : '';
        const url = `${opts.broadcasterUrl}/api/clips/${encodeURIComponent(request.params.id)}/audio${query}`;
        return passOn(await askBroadcaster(request, url, { method: 'GET' }), reply);
      }
      const row = await findClip(app.db, request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const download = request.query.download !== undefined;
      // Counted once per download, not for every range the page's player asks for.
      if (download) await countDownload(app.db, row.id);
      const name = clipFileName(row.title, '.mp3');
      reply.header('Content-Disposition', `${download ? 'attachment' : 'inline'}; filename="${name}"`);
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      return sendFileWithRanges(request, reply, clipFilePath(dir, row.id), row.mimeType);
    },
  );

  r.post(
    '/api/clips/:id/share',
    {
      schema: { params: clipParamsSchema, response: { 200: clipShareResponseSchema, 404: errorBodySchema } },
    },
    async (request, reply) => {
      const shareCount = await countShare(app.db, request.params.id);
      if (shareCount === undefined) return reply.code(404).send(NOT_FOUND);
      return { shareCount };
    },
  );

  r.get('/clips/:id', { schema: { params: clipParamsSchema } }, async (request, reply) => {
    const row = await findClip(app.db, request.params.id);
    // Unknown clips get the site's own 'Page Not Found' page.
    if (!row) return reply.callNotFound();
    const pageUrl = origin(request, reply) + request.url.split('?')[0];
    return reply.type('text/html; charset=utf-8').send(renderClipPage(row, app.station().name, pageUrl));
  });
}

/** A stored file with byte-range support (Safari's media player will not play without it). */
async function sendFileWithRanges(request: FastifyRequest, reply: FastifyReply, file: string, type: string) {
  const info = await stat(file).catch(() => null);
  if (!info) return reply.code(404).send(NOT_FOUND);
  const size = info.size;
  reply.header('Accept-Ranges', 'bytes');
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  if (!range || (range[1] === '' && range[2] === '')) {
    reply.type(type).header('Content-Length', size);
    return reply.send(createReadStream(file));
  }
  let start = range[1] === '' ? size - Number(range[2]) : Number(range[1]);
  let end = range[1] === '' || range[2] === '' ? size - 1 : Number(range[2]);
  start = Math.max(0, start);
  end = Math.min(end, size - 1);
  if (start > end) {
    return reply
      .code(416)
      .header('Content-Range', `bytes */${size}`)
      .send({ message: 'Range not satisfiable' });
  }
  reply
    .code(206)
    .type(type)
    .header('Content-Range', `bytes ${start}-${end}/${size}`)
    .header('Content-Length', end - start + 1);
  return reply.send(createReadStream(file, { start, end }));
}

/** The radio's recent audio, where it is broadcast (not on a web instance, whose broadcaster has it). */
export function radioClipAudio(app: object): ClipAudioSource | null {
  const { radio, nowPlaying } = app as unknown as { radio?: ClipAudioSource; nowPlaying?: unknown };
  if (!radio || (nowPlaying !== undefined && nowPlaying !== radio)) return null;
  return radio;
}
