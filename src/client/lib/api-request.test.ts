import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_KEY } from '../../common/admin-token';
import { sendJson, startTestServer } from '../test/http-server';
import { ApiError, apiGet, apiRequest, serverMessage } from './api-request';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url === '/api/empty-error') return void res.writeHead(503, 'Service Unavailable').end();
    if (req.url === '/api/text-error')
      return void res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad things');
    if (req.url === '/api/private') return void sendJson(res, 401, { message: 'Unauthorized' });
    sendJson(res, 200, { ok: true, method: req.method });
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  sessionStorage.clear();
});

describe('apiRequest (writes)', () => {
  it('sends a JSON body with a JSON content type only when a payload exists', async () => {
    const fetchSpy = server.routeFetch();
    await apiRequest('POST', '/api/things', { title: 'Hope' });
    await apiRequest('POST', '/api/things/1/play');

    const [withBody, withoutBody] = server.requests;
    expect(withBody?.headers['content-type']).toBe('application/json');
    expect(withBody?.body).toBe('{"title":"Hope"}');
    expect(withoutBody?.headers['content-type']).toBeUndefined();
    expect(withoutBody?.body).toBe('');
    expect(fetchSpy.mock.calls.map(([, init]) => init?.credentials)).toEqual(['include', 'include']);
  });

  it('uses the chosen method', async () => {
    server.routeFetch();
    await apiRequest('DELETE', '/api/things/1');
    expect(server.requests[0]?.method).toBe('DELETE');
  });

  it("raises 'status: text' on a non-success answer", async () => {
    server.routeFetch();
    await expect(apiRequest('POST', '/api/text-error', {})).rejects.toThrow('400: bad things');
  });

  it('uses the status text when the body is empty', async () => {
    server.routeFetch();
    await expect(apiRequest('PUT', '/api/empty-error')).rejects.toThrow('503: Service Unavailable');
  });

  it('sends the stored admin token as a bearer token, and none when signed out', async () => {
    server.routeFetch();
    await apiRequest('POST', '/api/things');
    sessionStorage.setItem(ADMIN_TOKEN_KEY, 'tok-123');
    await apiRequest('POST', '/api/things');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, 'Bearer tok-123']);
  });
});

describe('apiGet (reads)', () => {
  it('reads JSON with credentials included', async () => {
    const fetchSpy = server.routeFetch();
    await expect(apiGet('/api/things')).resolves.toEqual({ ok: true, method: 'GET' });
    expect(fetchSpy.mock.calls[0]?.[1]?.credentials).toBe('include');
  });

  it('treats a 401 as no data when configured, and raises it by default', async () => {
    server.routeFetch();
    await expect(apiGet('/api/private', { on401: 'returnNull' })).resolves.toBeNull();
    await expect(apiGet('/api/private')).rejects.toThrow('401: {"message":"Unauthorized"}');
  });
});

describe('ApiError', () => {
  it('keeps the status and the server message as data beside the SPEC text', async () => {
    server.routeFetch();
    const error = await apiGet('/api/private').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: '401: {"message":"Unauthorized"}' });
    expect(serverMessage(error)).toBe('Unauthorized');
  });

  it('has no server message when the body is not JSON', async () => {
    server.routeFetch();
    const error = await apiRequest('POST', '/api/text-error', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: '400: bad things' });
    expect(serverMessage(error)).toBeUndefined();
  });
});
