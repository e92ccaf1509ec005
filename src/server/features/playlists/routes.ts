import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema, staffErrorResponses } from '../../../common/http.js';
import {
  PLAYLIST_NOT_FOUND,
  playlistCreateSchema,
  playlistDetailSchema,
  playlistItemsBodySchema,
  playlistListSchema,
  playlistNameTaken,
  playlistUpdateSchema,
  unknownMediaItems,
} from '../../../common/playlists.js';
import {
  createPlaylist,
  deletePlaylist,
  getPlaylist,
  listPlaylists,
  setPlaylistItems,
  updatePlaylist,
  type PlaylistInUseCheck,
  type Saved,
} from './service.js';

const notFound = { message: PLAYLIST_NOT_FOUND };
const withConflict = { ...staffErrorResponses, 409: errorBodySchema };

/** The Playlists tab's API (admins and superusers). */
export async function playlistRoutes(app: FastifyInstance, opts: { inUse?: PlaylistInUseCheck[] } = {}) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const answer = (saved: Saved, reply: FastifyReply, status = 200) => {
    if (saved.outcome === 'not-found') return reply.code(404).send(notFound);
    if (saved.outcome === 'name-taken')
      return reply.code(409).send({ message: playlistNameTaken(saved.name) });
    if (saved.outcome === 'invalid') return reply.code(400).send({ message: saved.message });
    return reply.code(status).send(saved.playlist);
  };

  api.get(
    '/api/admin/playlists',
    {
      config: { access: 'staff' },
      schema: { response: { 200: playlistListSchema, ...staffErrorResponses } },
    },
    async () => ({ playlists: await listPlaylists(app.db) }),
  );

  api.get(
    '/api/admin/playlists/:id',
    {
      config: { access: 'staff' },
      schema: { params: idParamsSchema, response: { 200: playlistDetailSchema, ...staffErrorResponses } },
    },
    async (request, reply) =>
      (await getPlaylist(app.db, request.params.id)) ?? reply.code(404).send(notFound),
  );

  api.post(
    '/api/admin/playlists',
    {
      config: { access: 'staff' },
      schema: { body: playlistCreateSchema, response: { 201: playlistDetailSchema, ...withConflict } },
    },
    async (request, reply) => answer(await createPlaylist(app.db, request.body), reply, 201),
  );

  api.patch(
    '/api/admin/playlists/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        body: playlistUpdateSchema,
        response: { 200: playlistDetailSchema, ...withConflict },
      },
    },
    async (request, reply) => answer(await updatePlaylist(app.db, request.params.id, request.body), reply),
  );

  api.put(
    '/api/admin/playlists/:id/items',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        body: playlistItemsBodySchema,
        response: { 200: playlistDetailSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const saved = await setPlaylistItems(app.db, request.params.id, request.body.media_ids);
      if (saved.outcome === 'unknown-media')
        return reply.code(400).send({ message: unknownMediaItems(saved.missing) });
      return answer(saved, reply);
    },
  );

  api.delete(
    '/api/admin/playlists/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...withConflict },
      },
    },
    async (request, reply) => {
      const removed = await deletePlaylist(app.db, request.params.id, opts.inUse);
      if (removed.outcome === 'not-found') return reply.code(404).send(notFound);
      if (removed.outcome === 'in-use') return reply.code(409).send({ message: removed.message });
      return { ok: true as const };
    },
  );
}
