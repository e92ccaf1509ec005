import { randomBytes } from 'node:crypto';

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
