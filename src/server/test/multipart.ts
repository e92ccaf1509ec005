import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body with one file, as a browser's form sends it. */
export function multipartBody(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----station${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Posts one file as a browser's form sends it, with `headers` (a staff token, say). */
export function postFile(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  file: { field: string; filename: string; type: string; data: Buffer },
) {
  const body = multipartBody(file.field, file.filename, file.type, file.data);
  return app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
}
