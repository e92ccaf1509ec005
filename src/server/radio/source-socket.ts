// Owns: Icecast encoders' unframed PUT/SOURCE connections, taken from the HTTP server by their first bytes.
// Must not: decide who may go live (source-ingest.ts) nor touch other connections (left to the HTTP server).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SourceRequest } from './source-ingest.js';

const MAX_HEAD = 16 * 1024;
/** A connection that sends nothing for this long is closed (as Node's own headers timeout would). */
const FIRST_BYTES_TIMEOUT_MS = 60_000;
const SOURCE_PREFIXES = ['PUT /stream', 'SOURCE /stream'];

/**
 * Icecast encoders (ffmpeg's icecast://, libshout, butt) send `PUT`/`SOURCE` with neither Content-Length
 * nor chunking: the body is simply the rest of the connection. Node's HTTP parser would read those bytes as
 * a next request and fail, so such connections are recognised by their first bytes and taken before the
 * HTTP server sees them. Everything else (and framed uploads) goes to the HTTP server untouched
 * (docs/decisions/008-icecast-source-connections.md).
 */
export function takeUnframedSources(
  server: Server,
  handle: (request: SourceRequest, socket: Socket, bodyStart: Buffer) => void,
): { restore(): void; closePending(): void } {
  const pending = new Set<Socket>();
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const onConnection = (socket: Socket) => {
    let head: Buffer = Buffer.alloc(0);
    const onError = () => socket.destroy();
    const onTimeout = () => socket.destroy();
    const stopWatching = () => {
      pending.delete(socket);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('timeout', onTimeout);
      socket.setTimeout(0);
    };
    const handOver = () => {
      stopWatching();
      socket.pause();
      if (head.length) socket.unshift(head);
      for (const listener of httpListeners) listener.call(server, socket);
      socket.resume();
    };
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const start = head.toString('latin1', 0, Math.min(head.length, 16));
      const couldBeSource = SOURCE_PREFIXES.some((p) =>
        start.length >= p.length ? start.startsWith(p) : p.startsWith(start),
      );
      if (!couldBeSource) return handOver();
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD) handOver();
        return;
      }
      const request = parseHead(head.toString('latin1', 0, end));
      if (
        !request ||
        request.headers['content-length'] !== undefined ||
        request.headers['transfer-encoding'] !== undefined
      ) {
        return handOver();
      }
      stopWatching();
      request.remote = socket.remoteAddress;
      handle(request, socket, head.subarray(end + 4));
    };
    pending.add(socket);
    socket.once('close', () => pending.delete(socket));
    socket.on('data', onData);
    socket.on('error', onError);
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, onTimeout);
  };
  server.on('connection', onConnection);
  return {
    restore() {
      server.off('connection', onConnection);
      for (const listener of httpListeners) server.on('connection', listener);
    },
    /** Connections that have not said what they are yet would hold the server open at shutdown. */
    closePending() {
      for (const socket of pending) socket.destroy();
      pending.clear();
    },
  };
}

function parseHead(text: string): SourceRequest | null {
  const [requestLine, ...lines] = text.split('\r\n');
  const m = /^(PUT|SOURCE) (\S+) (HTTP\/1\.[01]|ICE\/1\.0)$/.exec(requestLine ?? '');
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method: m[1]!, url: m[2]!, headers };
}
