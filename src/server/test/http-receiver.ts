import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver took it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as it came (a signature is computed over it). */
  body: string;
}

/**
 * A real HTTP server on 127.0.0.1 (a port the kernel picks) standing in for a webhook or an API: it keeps every
 * request and answers as `answer` says (200 with '{}' unless told otherwise). `next()` waits for the next
 * request, so a test never sleeps.
 */
export async function startHttpReceiver() {
  const received: ReceivedRequest[] = [];
  const waiters: ((request: ReceivedRequest) => void)[] = [];
  const control: {
    answer: (request: ReceivedRequest, response: ServerResponse) => void;
  } = {
    answer: (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(one);
      control.answer(one, response);
      waiters.splice(0).forEach((wake) => wake(one));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    control,
    /** Resolves with the next request to arrive. */
    next: () => new Promise<ReceivedRequest>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
