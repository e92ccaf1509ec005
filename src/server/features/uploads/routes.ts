import { randomBytes } from 'node:crypto';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AUDIO_TOO_LARGE,
  AUDIO_UPLOAD_FIELD,
  INVALID_AUDIO_FILE,
  MAX_AUDIO_UPLOAD_BYTES,
  uploadAudioResponseSchema,
  FILE_TOO_LARGE,
  IMAGE_UPLOAD_FIELD,
  INVALID_FILE_TYPE,
  MAX_IMAGE_UPLOAD_BYTES,
  uploadImageResponseSchema,
} from '../../../common/featured-content.js';
import { errorBodySchema } from '../../../common/http.js';
import { checkAudio } from './audio-check.js';
import { UPLOADS_PREFIX, type UploadsFolder } from './service.js';
import { NotAnImageError, reencodeImage } from './image-processing.js';

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
        },
      },
    },
    async (request, reply) => {
      const invalid = () => reply.code(400).send({ message: INVALID_FILE_TYPE.message });
      const tooLarge = () => reply.code(413).send({ message: FILE_TOO_LARGE.message });
      if (!request.isMultipart()) return invalid();
      let bytes: Buffer | undefined;
      let truncatedField: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file' && part.fieldname === IMAGE_UPLOAD_FIELD && !bytes)
            bytes = await part.toBuffer();
          else if (part.type === 'file') part.file.resume();
          else if (part.valueTruncated) truncatedField ??= part.fieldname;
        }
      } catch (error) {
        return isTooLarge(error) ? tooLarge() : invalid();
      }
      // A text field over the limit would arrive cut short; refuse it rather than store half of it.
      if (truncatedField !== undefined)
        return reply
          .code(400)
          .send({ message: `The field '${truncatedField}' is longer than ${MAX_FIELD_BYTES} bytes` });
      if (!bytes) return invalid();
      let image;
      try {
        image = await reencodeImage(bytes);
      } catch (error) {
        if (error instanceof NotAnImageError) return invalid();
        throw error;
      }
      const name = `${randomBytes(16).toString('hex')}.${image.extension}`;
      await writeFile(path.join(uploadsDir, name), image.data, { flag: 'wx' });
      return reply.code(201).send({ imageUrl: `${UPLOADS_PREFIX}${name}` });
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
        },
      },
    },
    async (request, reply) => {
      const invalid = () => reply.code(400).send({ message: INVALID_AUDIO_FILE });
      if (!request.isMultipart()) return invalid();
      // Streamed to disk under a dot-name (never served), checked, then renamed into place.
      const incoming = path.join(uploadsDir, `.incoming-${randomBytes(8).toString('hex')}`);
      let received = false;
      try {
        for await (const part of request.parts({ limits: { fileSize: MAX_AUDIO_UPLOAD_BYTES, files: 1 } })) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== AUDIO_UPLOAD_FIELD || received) {
            part.file.resume();
            continue;
          }
          await pipeline(part.file, createWriteStream(incoming, { flags: 'wx' }));
          if (part.file.truncated)
            throw Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
          received = true;
        }
        if (!received) return invalid();
        const audio = await checkAudio(incoming);
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
        if (isTooLarge(error)) return reply.code(413).send({ message: AUDIO_TOO_LARGE });
        // A failure of this machine (disk full, permissions) is ours; anything else the body did.
        if (isSystemError(error)) throw error;
        return invalid();
      } finally {
        await unlink(incoming).catch(() => undefined);
      }
    },
  );
}
