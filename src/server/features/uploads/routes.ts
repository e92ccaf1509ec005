import { randomBytes } from 'node:crypto';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { audioQueue, checkUploadedAudio, DecodeTimeoutError, IncompleteAudioError } from './audio-check.js';
import { UPLOADS_PREFIX, type UploadsFolder } from './service.js';
import { imageQueue, PictureTooLargeError, reencodeImage } from './image-processing.js';
import { BUSY_RETRY_AFTER_SECONDS } from './work-queue.js';

/** A text field of a multipart upload is at most this long. */
const MAX_FIELD_BYTES = 1024;

/** An error the operating system raised (it names its call), not one about the request's body. */
const isSystemError = (error: unknown) =>
  typeof (error as { syscall?: unknown } | null)?.syscall === 'string';

const isTooLarge = (error: unknown) => (error as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

/** POST /api/upload-image (staff) and the files it stores, served from /uploads. */
export async function uploadRoutes(app: FastifyInstance, opts: { uploads: UploadsFolder }) {
  const uploadsDir = opts.uploads.dir;
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_UPLOAD_BYTES, files: 1, fields: 10, parts: 20, fieldSize: MAX_FIELD_BYTES },
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

  /**
   * Streams the one file part named `field` to a dot-name in the uploads folder (never served), at most
   * `maxBytes`; throws FST_REQ_FILE_TOO_LARGE beyond. False when the form held no such file.
   */
  async function receiveFile(request: FastifyRequest, field: string, maxBytes: number, incoming: string) {
    let received = false;
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type !== 'file') {
        // A text field over the limit would arrive cut short; refuse it rather than store half of it.
        if (part.valueTruncated) throw new FieldTooLongError(part.fieldname);
        continue;
      }
      if (part.fieldname !== field || received) {
        part.file.resume();
        continue;
      }
      await pipeline(part.file, createWriteStream(incoming, { flags: 'wx' }));
      if (part.file.truncated)
        throw Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
      received = true;
    }
    return received;
  }
  const incomingFile = () => path.join(uploadsDir, `.incoming-${randomBytes(8).toString('hex')}`);
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
      const incoming = incomingFile();
      try {
        if (!(await receiveFile(request, IMAGE_UPLOAD_FIELD, MAX_IMAGE_UPLOAD_BYTES, incoming)))
          return invalid();
        const image = await place.run(() => reencodeImage(incoming));
        const name = `${randomBytes(16).toString('hex')}.${image.extension}`;
        await writeFile(path.join(uploadsDir, name), image.data, { flag: 'wx' });
        await discard(incoming);
        return reply.code(201).send({ imageUrl: `${UPLOADS_PREFIX}${name}` });
      } catch (error) {
        await discard(incoming);
        if (isTooLarge(error)) return reply.code(413).send({ message: FILE_TOO_LARGE.message });
        if (error instanceof PictureTooLargeError)
          return reply.code(400).send({ message: pictureTooLarge(error.description) });
        if (error instanceof FieldTooLongError)
          return reply
            .code(400)
            .send({ message: `The field '${error.field}' is longer than ${MAX_FIELD_BYTES} bytes` });
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
      const incoming = incomingFile();
      try {
        if (!(await receiveFile(request, AUDIO_UPLOAD_FIELD, MAX_AUDIO_UPLOAD_BYTES, incoming)))
          return invalid();
        const audio = await place.run(() => checkUploadedAudio(incoming));
        const name = `${randomBytes(16).toString('hex')}.${audio.extension}`;
        await rename(incoming, path.join(uploadsDir, name));
        const { size } = await stat(path.join(uploadsDir, name));
        return reply.code(201).send({
          audioUrl: `${UPLOADS_PREFIX}${name}`,
          durationSeconds: audio.durationSeconds,
          mimeType: audio.mimeType,
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
        if (isSystemError(error)) throw error;
        return invalid();
      } finally {
        place.leave();
        await discard(incoming);
      }
    },
  );
}

/** A text field of the form arrived cut short at MAX_FIELD_BYTES. */
class FieldTooLongError extends Error {
  constructor(readonly field: string) {
    super(`field ${field} too long`);
  }
}
