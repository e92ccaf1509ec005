// Owns: letting an encoder in (its mount, its credentials now, nobody else live) and piping its body in.
// Must not: check passwords itself (handed in as SourceAuthoriser) nor decode or air the audio.
import type { Readable } from 'node:stream';
import type { LiveInput, LiveSession, LiveSourceOwner } from './live-input.js';

/** Icecast's realm; some encoders show it. */
export const SOURCE_REALM = 'Basic realm="Icecast2 Server"';
/** An encoder silent this long is gone (a dead connection must not hold the live input forever). */
export const SOURCE_IDLE_MS = 10_000;

export type SourceDecision =
  { ok: true; session: LiveSession } | { ok: false; status: 401 | 403 | 404 | 409; message: string };

/**
 * What an encoder's credentials allow: whose they are, or the refusal (401: wrong credentials; 403: right
 * ones at the wrong time, with the reason the encoder shows).
 */
export type SourceAuthorisation =
  { ok: true; owner: LiveSourceOwner } | { ok: false; status: 401 | 403; message: string };

/** Decides what an `Authorization` header allows (the station's password, or a presenter's in their slot). */
export type SourceAuthoriser = (
  authorization: string | undefined,
  remote?: string,
) => Promise<SourceAuthorisation>;

export interface SourceRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  remote?: string;
}

const header = (headers: SourceRequest['headers'], name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Decides whether an encoder may go live: the right mount, credentials let in now, and nobody else live. */
export async function admitSource(
  request: SourceRequest,
  live: LiveInput,
  authorise: SourceAuthoriser,
): Promise<SourceDecision> {
  const path = request.url.split('?')[0];
  if (path !== '/stream')
    return { ok: false, status: 404, message: 'Mount not found; this station takes sources on /stream' };
  const allowed = await authorise(header(request.headers, 'authorization'), request.remote);
  if (!allowed.ok) return allowed;
  const contentType = header(request.headers, 'content-type');
  if (
    contentType &&
    !/^audio\/(mpeg|mp3|mpeg3|x-mpeg)\b/i.test(contentType) &&
    !/^application\/octet-stream\b/i.test(contentType)
  ) {
    return { ok: false, status: 403, message: 'Content-type not supported; send MP3 (audio/mpeg)' };
  }
  const session = live.begin({
    name: header(request.headers, 'ice-name') ?? header(request.headers, 'icy-name'),
    description: header(request.headers, 'ice-description') ?? header(request.headers, 'icy-description'),
    remote: request.remote,
    connectedBy: allowed.owner,
  });
  if (!session) return { ok: false, status: 409, message: 'Mountpoint in use: another source is live' };
  return { ok: true, session };
}

/** Feeds an encoder's body into its session, pausing the encoder when it runs far ahead. */
export function pipeSource(body: Readable, session: LiveSession, onEnd: () => void): void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    session.end();
    onEnd();
  };
  body.on('data', (chunk: Buffer) => {
    if (!session.write(chunk)) {
      body.pause();
      session.onDrain(() => body.resume());
    }
  });
  body.on('end', finish);
  body.on('close', finish);
  body.on('error', finish);
}
