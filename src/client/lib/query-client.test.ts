import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../test/http-server';
import { createQueryClient, getQueryFn } from './query-client';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url.startsWith('/api/admin/verify')) return void sendJson(res, 401, { message: 'Unauthorized' });
    if (req.url === '/api/broken')
      return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('oops');
    sendJson(res, 200, { path: req.url });
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
});

describe('query client defaults (SPEC.md section 7)', () => {
  it('reads the path made by joining the key parts with slashes', async () => {
    server.routeFetch();
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['/api/subtitles', 'es'] })).resolves.toEqual({
      path: '/api/subtitles/es',
    });
  });

  it('never goes stale, does not refetch on focus or interval, and does not retry', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.staleTime).toBe(Infinity);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.retry).toBe(false);
    expect(mutations?.retry).toBe(false);
  });

  it('raises a failed read once, without retrying', async () => {
    server.routeFetch();
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['/api/broken'] })).rejects.toThrow('500: oops');
    expect(server.requests).toHaveLength(1);
  });

  it('treats a 401 as no data with on401 returnNull and raises it with throw', async () => {
    server.routeFetch();
    const client = createQueryClient();
    await expect(
      client.fetchQuery({ queryKey: ['/api/admin/verify'], queryFn: getQueryFn({ on401: 'returnNull' }) }),
    ).resolves.toBeNull();
    await expect(
      client.fetchQuery({
        queryKey: ['/api/admin/verify', 'again'],
        queryFn: getQueryFn({ on401: 'throw' }),
      }),
    ).rejects.toThrow(/^401: /);
  });
});
