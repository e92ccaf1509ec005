import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi, type MockInstance } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: RecordedRequest, res: ServerResponse) => void;

/**
 * A real HTTP server on a free port for client tests. `routeFetch()` sends the page's relative
 * requests ('/api/...') to it, as the browser would send them to the station.
 */
export async function startTestServer(handler: Handler) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  let spy: MockInstance<typeof fetch> | undefined;

  return {
    base,
    requests,
    /** Routes relative fetches to this server; returns the spy to inspect the init each call used. */
    routeFetch() {
      spy?.mockRestore();
      spy = vi
        .spyOn(globalThis, 'fetch')
        .mockImplementation((input: RequestInfo | URL, init?: RequestInit) =>
          realFetch(new URL(String(input), base), init),
        );
      return spy;
    },
    /** Restores the real fetch and forgets the recorded requests (call after each test). */
    reset() {
      spy?.mockRestore();
      spy = undefined;
      requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
