import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import { MEDIA_UPLOAD_FIELD, type MediaItem } from '../../common/library.js';
import { makeTone } from '../radio/test-audio.js';
import { multipartBody } from './multipart.js';

/** A tone made by ffmpeg in `dir` (its format from the name), as the bytes a browser would upload. */
export async function toneFile(dir: string, name: string, options: Parameters<typeof makeTone>[1] = {}) {
  return readFile(await makeTone(join(dir, name), options));
}

/** POST /api/library with one file, as the Library tab sends it. */
export function uploadMedia(
  app: FastifyInstance,
  headers: Record<string, string>,
  data: Buffer,
  filename: string,
  field = MEDIA_UPLOAD_FIELD,
) {
  const body = multipartBody(field, filename, 'application/octet-stream', data);
  return app.inject({
    method: 'POST',
    url: '/api/library',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** Every library item, newest first. */
export async function listLibrary(
  app: FastifyInstance,
  headers: Record<string, string>,
): Promise<MediaItem[]> {
  const res = await app.inject({ url: '/api/library?limit=200', headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: MediaItem[] }).items;
}

/** The item once its background analysis has ended (ready or failed). */
export async function whenMeasured(app: FastifyInstance, headers: Record<string, string>, id: string) {
  return vi.waitFor(
    async () => {
      const item = (await listLibrary(app, headers)).find((candidate) => candidate.id === id);
      expect(item?.status).not.toBe('analysing');
      return item!;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * Every library item once none is being measured any more (what a test compares before and after); with
 * `count`, once there are that many (an import runs in the background after the start).
 */
export async function settledLibrary(app: FastifyInstance, headers: Record<string, string>, count?: number) {
  return vi.waitFor(
    async () => {
      const items = await listLibrary(app, headers);
      if (count !== undefined) expect(items).toHaveLength(count);
      expect(items.filter((item) => item.status === 'analysing')).toEqual([]);
      return items;
    },
    { timeout: 30_000, interval: 100 },
  );
}
