import { randomBytes } from 'node:crypto';
import { rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AUDIO_CHECK_TIMED_OUT,
  AUDIO_TOO_LARGE,
  incompleteAudioFile,
  UPLOADS_BUSY,
  AUDIO_UPLOAD_FIELD,
  INVALID_AUDIO_FILE,
  MAX_AUDIO_UPLOAD_BYTES,
  uploadAudioResponseSchema,
  FILE_TOO_LARGE,
  IMAGE_UPLOAD_FIELD,
  INVALID_FILE_TYPE,
  MAX_IMAGE_UPLOAD_BYTES,
  pictureTooLarge,
  uploadImageResponseSchema,
} from '../../../common/featured-content.js';
import { errorBodySchema } from '../../../common/http.js';
import { cannotReadWithoutFfmpeg } from '../../../common/library.js';
import {
  audioQueue,
  checkUploadedAudio,
  DecodeTimeoutError,
  IncompleteAudioError,
  MissingMediaToolError,
  mp3WithoutFfmpeg,
  type CheckedAudio,
  type ProbedAudio,
} from './audio-check.js';
import { UPLOADS_PREFIX, type UploadsFolder } from './service.js';
import { imageQueue, PictureTooLargeError } from './image-processing.js';
import { FieldTooLongError, isSystemError, isTooLarge, MULTIPART_LIMITS, receiveFile } from './receive.js';
import { workFile } from './work-files.js';
import { BUSY_RETRY_AFTER_SECONDS } from './work-queue.js';

/** Sermon audio as the Content tab takes it: what every browser and podcast app plays. */
const sermonType = (audio: ProbedAudio) =>
  (['audio/mpeg', 'audio/mp4'] as const).find((type) => type === audio.mimeType);

/** A sermon's audio, stored: where, what the staff member called it, and what it holds. */
export interface StoredSermonAudio {
  file: string;
  originalName: string;
  audio: CheckedAudio;
}

/** POST /api/upload-image and /api/upload-audio (staff) and the files they store, served from /uploads. */
export async function uploadRoutes(
  app: FastifyInstance,
  opts: {
    uploads: UploadsFolder;
    /** Told of each sermon file stored (the library lists it); the upload fails, and keeps nothing, if this does. */
    onSermonAudio: (stored: StoredSermonAudio) => Promise<void>;
  },
) {
  const uploadsDir = opts.uploads.dir;
  await app.register(multipart, {
    limits: { ...MULTIPART_LIMITS, fileSize: MAX_IMAGE_UPLOAD_BYTES },
  });
  await app.register(fastifyStatic, {
    root: uploadsDir,
    prefix: UPLOADS_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders(res) {
      // Names are random and never reused, so a stored picture never changes.
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    },
  });

  const busy = (reply: FastifyReply) =>
    reply.code(503).header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS)).send({ message: UPLOADS_BUSY });

  // Removed before the answer is sent, so a refused upload has left nothing behind when its answer arrives.
  const discard = (incoming: string) => unlink(incoming).catch(() => undefined);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/upload-image',
    {
      config: { access: 'staff' },
      schema: {
        response: {
          201: uploadImageResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          413: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const invalid = () => reply.code(400).send({ message: INVALID_FILE_TYPE.message });
      if (!request.isMultipart()) return invalid();
      // A place is taken before the body is read: a burst beyond the line is refused before it is received.
      const place = imageQueue.admit();
      if (!place) return busy(reply);
      const incoming = workFile(uploadsDir, 'incoming');
      try {
        if ((await receiveFile(request, IMAGE_UPLOAD_FIELD, MAX_IMAGE_UPLOAD_BYTES, incoming)) === undefined)
          return invalid();
        const imageUrl = await opts.uploads.saveImage(incoming, place);
        await discard(incoming);
        return reply.code(201).send({ imageUrl });
      } catch (error) {
        await discard(incoming);
        if (isTooLarge(error)) return reply.code(413).send({ message: FILE_TOO_LARGE.message });
        if (error instanceof PictureTooLargeError)
          return reply.code(400).send({ message: pictureTooLarge(error.description) });
        if (error instanceof FieldTooLongError) return reply.code(400).send({ message: error.message });
        // A failure of this machine (disk full, permissions) is ours; anything else the body did.
        if (isSystemError(error)) throw error;
        return invalid();
      } finally {
        place.leave();
        await discard(incoming);
      }
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/upload-audio',
    {
      config: { access: 'staff' },
      schema: {
        response: {
          201: uploadAudioResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const invalid = () => reply.code(400).send({ message: INVALID_AUDIO_FILE });
      if (!request.isMultipart()) return invalid();
      const place = audioQueue.admit();
      if (!place) return busy(reply);
      // Streamed to disk under a dot-name (never served), checked, then renamed into place.
      const incoming = workFile(uploadsDir, 'incoming');
      try {
        const originalName = await receiveFile(request, AUDIO_UPLOAD_FIELD, MAX_AUDIO_UPLOAD_BYTES, incoming);
        if (originalName === undefined) return invalid();
        const audio = await place.run(() => checkUploadedAudio(incoming, (probed) => !!sermonType(probed)));
        const name = `${randomBytes(16).toString('hex')}.${audio.format}`;
        const file = path.join(uploadsDir, name);
        await rename(incoming, file);
        try {
          await opts.onSermonAudio({ file, originalName, audio });
        } catch (error) {
          await discard(file);
          throw error;
        }
        const { size } = await stat(file);
        return reply.code(201).send({
          audioUrl: `${UPLOADS_PREFIX}${name}`,
          durationSeconds: audio.durationSeconds,
          mimeType: sermonType(audio)!,
          size,
        });
      } catch (error) {
        await discard(incoming);
        if (isTooLarge(error)) return reply.code(413).send({ message: AUDIO_TOO_LARGE });
        if (error instanceof IncompleteAudioError)
          return reply
            .code(400)
            .send({ message: incompleteAudioFile(error.claimedSeconds, error.decodedSeconds) });
        if (error instanceof DecodeTimeoutError)
          return reply.code(503).header('Retry-After', '300').send({ message: AUDIO_CHECK_TIMED_OUT });
        if (error instanceof MissingMediaToolError)
          return reply.code(415).send({ message: cannotReadWithoutFfmpeg(mp3WithoutFfmpeg()) });
        if (isSystemError(error)) throw error;
        return invalid();
      } finally {
        place.leave();
        await discard(incoming);
      }
    },
  );
}
