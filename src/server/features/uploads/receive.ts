import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';

/**
 * Bodies are not read while a picture is re-encoded: libvips and mozjpeg hold about 15 MB for the picture, the
 * most of any moment of an upload, and every body received meanwhile would add its socket reads on top
 * (measured by bench/uploads). The senders wait on TCP's flow control, about a second per picture; the pictures
 * waiting their turn are already on disk.
 */
class Pause {
  private holders = 0;
  private readonly waiting: (() => void)[] = [];

  get holding() {
    return this.holders > 0;
  }

  /** Runs `work` with bodies held. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.holders++;
    try {
      return await work();
    } finally {
      if (--this.holders === 0) for (const resume of this.waiting.splice(0)) resume();
    }
  }

  /** Resolves once nothing holds bodies. */
  async over(): Promise<void> {
    if (this.holders > 0) await new Promise<void>((resume) => this.waiting.push(resume));
  }
}

export const bodiesHeld = new Pause();

/** A text field of a multipart upload is at most this long. */
export const MAX_FIELD_BYTES = 1024;

/** What @fastify/multipart is registered with wherever files are received (the file size is set per route). */
export const MULTIPART_LIMITS = { files: 1, fields: 10, parts: 20, fieldSize: MAX_FIELD_BYTES };

/** An error the operating system raised (it names its call), not one about the request's body. */
export const isSystemError = (error: unknown) =>
  typeof (error as { syscall?: unknown } | null)?.syscall === 'string';

/** The file went past the route's size limit. */
export const isTooLarge = (error: unknown) =>
  (error as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

/** A text field of the form arrived cut short at MAX_FIELD_BYTES. */
export class FieldTooLongError extends Error {
  constructor(readonly field: string) {
    super(`The field '${field}' is longer than ${MAX_FIELD_BYTES} bytes`);
  }
}

/**
 * Streams the one file part named `field` to `incoming` (a dot-name, never served), at most `maxBytes`;
 * throws FST_REQ_FILE_TOO_LARGE beyond, FieldTooLongError for a text field over MAX_FIELD_BYTES, and the
 * stream's error when the upload is cut off. Answers the file's name as sent, or undefined when the form
 * held no such file. The caller removes `incoming` whatever happens.
 */
export async function receiveFile(
  request: FastifyRequest,
  field: string,
  maxBytes: number,
  incoming: string,
): Promise<string | undefined> {
  let received: string | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
    if (part.type !== 'file') {
      // A text field over the limit would arrive cut short; refuse it rather than store half of it.
      if (part.valueTruncated) throw new FieldTooLongError(part.fieldname);
      continue;
    }
    if (part.fieldname !== field || received !== undefined) {
      part.file.resume();
      continue;
    }
    await pipeline(
      part.file,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          await bodiesHeld.over();
          yield chunk;
        }
      },
      createWriteStream(incoming, { flags: 'wx' }),
    );
    if (part.file.truncated) throw Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    received = part.filename;
  }
  return received;
}
