import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { multipartBody } from '../../test/multipart.js';
import { addStaff } from '../../test/staff.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'designer', 'admin')).headers;
});
afterAll(() => t.close());

function upload(data: Buffer, filename = 'photo.png', contentType = 'image/png', field = 'image') {
  const body = multipartBody(field, filename, contentType, data);
  return t.app.inject({
    method: 'POST',
    url: '/api/upload-image',
    headers: { ...staff, ...body.headers },
    payload: body.payload,
  });
}

const EXIF = { IFD0: { Copyright: 'Grace Church', ImageDescription: 'Taken at home, GPS inside' } };

describe('POST /api/upload-image', () => {
  it('refuses a text field over 1 KB with a 400 naming the field, and stores nothing', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const boundary = `----station${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n${'x'.repeat(2000)}\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-image',
      headers: { ...staff, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("The field 'caption' is longer than 1024 bytes");
  });

  it('accepts a real PNG, stores it re-encoded without EXIF, and serves it from /uploads', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .png()
      .withExif(EXIF)
      .toBuffer();
    expect((await sharp(png).metadata()).exif).toBeDefined();

    const res = await upload(png);
    expect(res.statusCode).toBe(201);
    const { imageUrl } = res.json();
    expect(imageUrl).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);

    const served = await t.app.inject({ method: 'GET', url: imageUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('max-age=31536000');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('GPS inside'))).toBe(false);
  });

  it('turns a sideways JPEG upright and shrinks a huge picture to fit 1600 px', async () => {
    const jpeg = await sharp({ create: { width: 3200, height: 1000, channels: 3, background: '#36c' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const res = await upload(jpeg, 'holiday.jpeg', 'image/jpeg');
    expect(res.statusCode).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: res.json().imageUrl });
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 500, height: 1600 });
    expect(meta.orientation).toBeUndefined();
  });

  it('checks the bytes, not the name: a text file called .png is refused', async () => {
    const res = await upload(
      Buffer.from('this is not a picture, just words\n'.repeat(20)),
      'sermon.png',
      'image/png',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Please upload an image file (JPEG, PNG, GIF, or WebP)' });
  });

  it('refuses image formats SPEC.md does not list (SVG, TIFF) whatever they are called', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    expect((await upload(svg, 'logo.png', 'image/png')).statusCode).toBe(400);
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect((await upload(tiff, 'scan.jpg', 'image/jpeg')).statusCode).toBe(400);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const res = await upload(randomBytes(6 * 1024 * 1024), 'big.png', 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Please upload an image smaller than 5MB' });
  });

  it('refuses a request without an image field', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect((await upload(png, 'a.png', 'image/png', 'picture')).statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/upload-image',
      headers: staff,
      payload: { image: 'x' },
    });
    expect(json.statusCode).toBe(400);
  });

  it('accepts GIF and WebP, keeping their format', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#0f0f' } })
      .gif()
      .toBuffer();
    const webp = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#00f' } })
      .webp()
      .toBuffer();
    expect((await upload(gif, 'a.gif', 'image/gif')).json().imageUrl).toMatch(/\.gif$/);
    expect((await upload(webp, 'a.webp', 'application/octet-stream')).json().imageUrl).toMatch(/\.webp$/);
  });
});
