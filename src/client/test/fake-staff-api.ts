import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeAnswer = { status: number; body?: unknown } | 'network-error';
type Route = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>);

/**
 * Component tests stop at the fetch boundary: routes keyed 'METHOD /path' answer as the station would.
 * Unknown routes answer 404, so a call nobody expected shows up as a failing assertion, not a hang.
 */
export function fakeStaffApi(routes: Record<string, Route>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://station.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    let body: unknown = init.body;
    if (typeof init.body === 'string') body = JSON.parse(init.body);
    const request = { method, path: url.pathname + url.search, headers, body };
    requests.push(request);
    const route = routes[`${method} ${url.pathname + url.search}`] ?? routes[`${method} ${url.pathname}`];
    const answer =
      typeof route === 'function'
        ? await route(request)
        : (route ?? { status: 404, body: { message: 'Not found' } });
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const text =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    return new Response(answer.status === 204 ? null : text, {
      status: answer.status,
      headers: { 'Content-Type': typeof answer.body === 'string' ? 'text/plain' : 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** The requests made to one route. */
    calls: (method: string, path: string) =>
      requests.filter((r) => r.method === method && r.path.split('?')[0] === path),
    setRoute(key: string, route: Route) {
      routes[key] = route;
    },
  };
}

export const superuser = { id: 'u-root', username: 'pastor-john', role: 'superuser' as const };
export const admin = { id: 'u-anna', username: 'anna', role: 'admin' as const };
export const presenter = { id: 'u-ruth', username: 'pastor-ruth', role: 'presenter' as const };
