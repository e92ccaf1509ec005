import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';

describe('clips in the whole app', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers the clip routes before the 404 handler', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/clips/unknown' })).json()).toEqual({
      message: 'Clip not found',
    });
    const page = await t.app.inject({ method: 'GET', url: '/clips/unknown' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('answers a clear 4xx, never a 5xx, when asked for a clip', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/clips', payload: { seconds: 10 } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });
});
