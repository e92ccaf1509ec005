import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  featuredContentBodySchema,
  featuredIdParamsSchema,
  featuredItemSchema,
  featuredListSchema,
  playResponseSchema,
} from '../../../common/featured-content.js';
import { errorBodySchema } from '../../../common/http.js';
import { RecentPlays } from './play-counter.js';
import {
  addStaffContent,
  CONTENT_NOT_FOUND,
  listActiveContent,
  recordPlay,
  removeContent,
  updateContent,
  type FeaturedFiles,
  type SaveOutcome,
} from './service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * Featured sermons, devotions, music and announcements: public list and play count, staff writes. Where an
 * item's audio has a finished transcript, `transcriptUrls` (handed in by app.ts) tells the list where.
 */
export async function featuredContentRoutes(
  app: FastifyInstance,
  opts: Omit<FeaturedFiles, 'log'> & {
    transcriptUrls?: (audioUrls: string[]) => Promise<ReadonlyMap<string, string>>;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const recentPlays = new RecentPlays();
  const { transcriptUrls, ...stored } = opts;
  const files: FeaturedFiles = { ...stored, log: app.log };
  const answer = (reply: FastifyReply, saved: SaveOutcome, status: 200 | 201) => {
    if (saved.outcome === 'saved') return reply.code(status).send(saved.item);
    if (saved.outcome === 'refused') return reply.code(400).send({ message: saved.message });
    return reply.code(404).send({ message: CONTENT_NOT_FOUND });
  };

  api.get('/featured-content', { schema: { response: { 200: featuredListSchema } } }, async () => {
    const items = await listActiveContent(app.db);
    const audio = items.flatMap((item) => (item.audioUrl ? [item.audioUrl] : []));
    const transcripts =
      transcriptUrls && audio.length ? await transcriptUrls(audio) : new Map<string, string>();
    return items.map((item) => {
      const transcriptUrl = item.audioUrl ? transcripts.get(item.audioUrl) : undefined;
      return transcriptUrl ? { ...item, transcriptUrl } : item;
    });
  });

  api.post(
    '/featured-content',
    {
      config: { access: 'staff' },
      schema: { body: featuredContentBodySchema, response: { 201: featuredItemSchema, ...errors } },
    },
    async (request, reply) => answer(reply, await addStaffContent(app.db, files, request.body), 201),
  );

  api.put(
    '/featured-content/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: featuredIdParamsSchema,
        body: featuredContentBodySchema,
        response: { 200: featuredItemSchema, ...errors },
      },
    },
    async (request, reply) =>
      answer(reply, await updateContent(app.db, files, request.params.id, request.body), 200),
  );

  api.delete(
    '/featured-content/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: featuredIdParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request, reply) =>
      (await removeContent(app.db, request.params.id))
        ? { ok: true as const }
        : reply.code(404).send({ message: CONTENT_NOT_FOUND }),
  );

  api.post(
    '/featured-content/:id/play',
    {
      schema: {
        params: featuredIdParamsSchema,
        response: { 200: playResponseSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const repeat = recentPlays.isRepeat(request.ip, id);
      const play = await recordPlay(app.db, id, repeat);
      if (play.outcome === 'refused') return reply.code(play.status).send({ message: play.message });
      if (!repeat) recentPlays.remember(request.ip, id);
      return { playCount: play.playCount };
    },
  );
}
