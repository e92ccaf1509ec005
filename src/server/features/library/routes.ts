import { unlink } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUDIO_CHECK_TIMED_OUT,
  FILE_TOO_LARGE,
  pictureTooLarge,
  incompleteAudioFile,
  INVALID_FILE_TYPE,
  MAX_IMAGE_UPLOAD_BYTES,
  UPLOADS_BUSY,
} from '../../../common/featured-content.js';
import { errorBodySchema, idParamsSchema, staffErrorResponses } from '../../../common/http.js';
import {
  cannotReadWithoutFfmpeg,
  INVALID_MEDIA_FILE,
  MEDIA_ARTWORK_FIELD,
  MEDIA_NOT_FOUND,
  MEDIA_UPLOAD_FIELD,
  mediaItemSchema,
  mediaListQuerySchema,
  mediaListSchema,
  mediaPreviewSchema,
  mediaPublishedSchema,
  mediaPublishSchema,
  mediaTooLarge,
  mediaUpdateSchema,
  mediaBulkResultSchema,
  mediaBulkUpdateSchema,
  bulkItemsNotFound,
  NO_AUDIO_STREAM,
  PREVIEW_LINK_EXPIRED,
  recordedLiveDescription,
  TRUNCATED_MEDIA_FILE,
} from '../../../common/library.js';
import { requestOrigin } from '../../plugins/request-host.js';
import {
  audioQueue,
  BUSY_RETRY_AFTER_SECONDS,
  checkUploadedAudio,
  DecodeTimeoutError,
  FieldTooLongError,
  imageQueue,
  IncompleteAudioError,
  isSystemError,
  isTooLarge,
  MissingMediaToolError,
  mp3WithoutFfmpeg,
  MULTIPART_LIMITS,
  NoAudioStreamError,
  NotAnImageError,
  PictureTooLargeError,
  receiveFile,
  TruncatedAudioError,
  type CheckedAudio,
  workFile,
} from '../uploads/service.js';
import { longDate } from './air-recordings.js';
import {
  addUpload,
  featuredAudioFile,
  listMedia,
  previewFile,
  previewUrl,
  publishMedia,
  removeMedia,
  setArtwork,
  updateMedia,
  updateMediaInBulk,
  type AudioFile,
  type Library,
} from './service.js';

const notFound = { message: MEDIA_NOT_FOUND };
const previewQuerySchema = z.object({
  expires: z.coerce.number().int().min(0).max(1e12),
  signature: z.string().max(200),
});

/** The Library tab's API (staff), the preview its player plays, and the audio featured items play. */
export async function libraryRoutes(app: FastifyInstance, opts: { library: Library }) {
  const { library } = opts;
  const maxMb = app.config.maxUploadMb;
  const maxBytes = maxMb * 1024 * 1024;
  await app.register(multipart, { limits: { ...MULTIPART_LIMITS, fileSize: maxBytes } });
  const api = app.withTypeProvider<ZodTypeProvider>();

  const busy = (reply: FastifyReply) =>
    reply.code(503).header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS)).send({ message: UPLOADS_BUSY });
  const discard = (file: string) => unlink(file).catch(() => undefined);

  api.get(
    '/api/library',
    {
      config: { access: 'staff' },
      schema: {
        querystring: mediaListQuerySchema,
        response: { 200: mediaListSchema, ...staffErrorResponses },
      },
    },
    async (request) => listMedia(app.db, request.query),
  );

  api.post(
    '/api/library',
    {
      config: { access: 'staff' },
      schema: {
        response: {
          201: mediaItemSchema,
          ...staffErrorResponses,
          413: errorBodySchema,
          415: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) return reply.code(400).send({ message: INVALID_MEDIA_FILE });
      // A place is taken before the body is read: a burst beyond the line is refused before it is received.
      const place = audioQueue.admit();
      if (!place) return busy(reply);
      // Received under a dot-name in the folder it will live in (so moving it in is a rename), removed on any failure.
      const incoming = workFile(library.folders.media, 'incoming');
      try {
        let upload: { originalName: string; audio: CheckedAudio };
        try {
          const originalName = await receiveFile(request, MEDIA_UPLOAD_FIELD, maxBytes, incoming);
          if (originalName === undefined) return reply.code(400).send({ message: INVALID_MEDIA_FILE });
          upload = { originalName, audio: await place.run(() => checkUploadedAudio(incoming)) };
        } catch (error) {
          await discard(incoming);
          return refuseAudio(error, reply, maxMb);
        }
        const item = await addUpload(library, { incoming, ...upload, kind: 'music' });
        return reply.code(201).send(item);
      } finally {
        place.leave();
        await discard(incoming);
      }
    },
  );

  api.patch(
    '/api/library/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        body: mediaUpdateSchema,
        response: { 200: mediaItemSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) =>
      (await updateMedia(app.db, request.params.id, request.body)) ?? reply.code(404).send(notFound),
  );

  api.post(
    '/api/library/bulk',
    {
      config: { access: 'staff' },
      schema: {
        body: mediaBulkUpdateSchema,
        response: { 200: mediaBulkResultSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const done = await updateMediaInBulk(app.db, request.body);
      return 'missing' in done ? reply.code(404).send({ message: bulkItemsNotFound(done.missing) }) : done;
    },
  );

  api.delete(
    '/api/library/:id',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...staffErrorResponses, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const removed = await removeMedia(library, request.params.id);
      if (removed.outcome === 'not-found') return reply.code(404).send(notFound);
      if (removed.outcome === 'in-use') return reply.code(409).send({ message: removed.message });
      return { ok: true as const };
    },
  );

  api.post(
    '/api/library/:id/artwork',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        response: {
          200: mediaItemSchema,
          ...staffErrorResponses,
          413: errorBodySchema,
          415: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const invalid = () => reply.code(400).send({ message: INVALID_FILE_TYPE.message });
      if (!request.isMultipart()) return invalid();
      const place = imageQueue.admit();
      if (!place) return busy(reply);
      const incoming = workFile(library.uploads.dir, 'incoming');
      try {
        if ((await receiveFile(request, MEDIA_ARTWORK_FIELD, MAX_IMAGE_UPLOAD_BYTES, incoming)) === undefined)
          return invalid();
        const item = await setArtwork(library, request.params.id, incoming, place);
        return item ?? reply.code(404).send(notFound);
      } catch (error) {
        await discard(incoming);
        if (isTooLarge(error)) return reply.code(413).send({ message: FILE_TOO_LARGE.message });
        if (error instanceof FieldTooLongError) return reply.code(400).send({ message: error.message });
        if (error instanceof NotAnImageError) return invalid();
        if (error instanceof PictureTooLargeError)
          return reply.code(400).send({ message: pictureTooLarge(error.description) });
        if (isSystemError(error)) throw error;
        return invalid();
      } finally {
        place.leave();
        await discard(incoming);
      }
    },
  );

  // One click: a recording becomes a featured sermon and podcast episode; staff are told it is published.
  api.post(
    '/api/library/:id/publish',
    {
      config: { access: 'staff' },
      schema: {
        params: idParamsSchema,
        body: mediaPublishSchema.nullish(),
        response: { 201: mediaPublishedSchema, ...staffErrorResponses, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const station = app.station();
      const published = await publishMedia(app.db, request.params.id, {
        ...request.body,
        defaultDescription: ({ draft, createdAt }) =>
          draft
            ? recordedLiveDescription(station.name, longDate(createdAt, station.timeZone))
            : `From ${station.name}'s library.`,
      });
      if (published.outcome === 'not-found') return reply.code(404).send(notFound);
      if (published.outcome === 'refused') return reply.code(409).send({ message: published.message });
      app.notify({
        type: 'recording_published',
        title: published.featured.title,
        link: `${requestOrigin(request)}${published.featured.audioUrl}`,
      });
      return reply.code(201).send({ item: published.item, featured: published.featured });
    },
  );

  api.post(
    '/api/library/:id/preview',
    {
      config: { access: 'staff' },
      schema: { params: idParamsSchema, response: { 200: mediaPreviewSchema, ...staffErrorResponses } },
    },
    async (request, reply) => {
      const url = await previewUrl(app.db, request.params.id);
      return url ? { url } : reply.code(404).send(notFound);
    },
  );

  // The preview's audio: its signature, not a bearer token, says a staff member asked for it.
  api.get(
    '/api/library/:id/audio',
    { compress: false, schema: { params: idParamsSchema, querystring: previewQuerySchema } },
    async (request, reply) => {
      const file = await previewFile(library, { id: request.params.id, ...request.query });
      if (file === 'expired') return reply.code(403).send({ message: PREVIEW_LINK_EXPIRED });
      if (!file) return reply.code(404).send(notFound);
      return sendAudio(request, reply, file, 'private, no-store');
    },
  );

  // A library item's audio as listeners play it, only while a featured item uses it.
  api.get('/media/:id', { compress: false, schema: { params: idParamsSchema } }, async (request, reply) => {
    const file = await featuredAudioFile(library, request.params.id);
    if (!file) return reply.code(404).send(notFound);
    return sendAudio(request, reply, file, 'public, max-age=300');
  });
}

/** The clear 4xx for an upload that is not audio we take, or a 503 when its check ran out of time. */
function refuseAudio(error: unknown, reply: FastifyReply, maxMb: number) {
  const refuse = (message: string) => reply.code(400).send({ message });
  if (isTooLarge(error)) return reply.code(413).send({ message: mediaTooLarge(maxMb) });
  if (error instanceof FieldTooLongError) return refuse(error.message);
  if (error instanceof IncompleteAudioError)
    return refuse(incompleteAudioFile(error.claimedSeconds, error.decodedSeconds));
  if (error instanceof TruncatedAudioError) return refuse(TRUNCATED_MEDIA_FILE);
  if (error instanceof NoAudioStreamError) return refuse(NO_AUDIO_STREAM);
  if (error instanceof DecodeTimeoutError)
    return reply.code(503).header('Retry-After', '300').send({ message: AUDIO_CHECK_TIMED_OUT });
  if (error instanceof MissingMediaToolError)
    return reply.code(415).send({ message: cannotReadWithoutFfmpeg(mp3WithoutFfmpeg()) });
  // A failure of this machine (disk full, permissions) is ours; anything else the body did.
  if (isSystemError(error)) throw error;
  return refuse(INVALID_MEDIA_FILE);
}

/** A stored audio file with byte ranges (Safari's player will not play without them), ETag and HEAD. */
async function sendAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  file: AudioFile,
  cacheControl: string,
) {
  const sent = await send(request.raw, encodeURIComponent(file.name), {
    root: file.dir,
    dotfiles: 'deny',
    cacheControl: false,
    contentType: false,
  });
  if (sent.type === 'error') {
    if (sent.statusCode !== 416) return reply.code(404).send(notFound);
    return reply
      .code(416)
      .header('Content-Range', sent.headers['Content-Range'] ?? sent.headers['content-range'])
      .send({ message: 'Range not satisfiable' });
  }
  return reply
    .code(sent.statusCode)
    .headers(sent.headers)
    .type(file.mimeType)
    .header('Cache-Control', cacheControl)
    .header('X-Content-Type-Options', 'nosniff')
    .send(sent.stream);
}
