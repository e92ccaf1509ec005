import type { FastifyInstance, FastifyReply, RouteHandlerMethod } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Socket } from 'node:net';
import { sourceMetadataQuerySchema } from '../../../common/radio.js';
import type { RadioEngine } from '../../radio/engine.js';
import type { LiveSourceOwner } from '../../radio/live-input.js';
import {
  admitSource,
  pipeSource,
  SOURCE_IDLE_MS,
  type SourceAuthoriser,
  type SourceDecision,
  SOURCE_REALM,
  type SourceRequest,
} from '../../radio/source-ingest.js';
import { takeUnframedSources } from '../../radio/source-socket.js';
import type { SourcePasswordGuard } from './source-guard.js';

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

/** What admitSource decides, or the wait when the address guessed too often. */
type Admission = SourceDecision | { ok: false; status: 429; message: string; retryAfterSeconds: number };

/**
 * Live input over the Icecast source protocol: `PUT /stream` or `SOURCE /stream` with Basic auth
 * (`source:<station password>`, or a presenter's username and own password in their slot; see
 * source-auth.ts), and the `/admin/metadata` call encoders use to announce songs. Wrong passwords are
 * limited per address as sign-in is; over the limit the answer is 429 with Retry-After and the reason.
 */
export async function sourceRoutes(
  app: FastifyInstance,
  opts: { engine: RadioEngine; guard: SourcePasswordGuard; authorise: SourceAuthoriser },
) {
  const { engine, guard, authorise } = opts;

  /** admitSource behind the guard: a request for another mount is not a password attempt. */
  async function admit(request: SourceRequest): Promise<Admission> {
    if (request.url.split('?')[0] !== '/stream') return admitSource(request, engine.live, authorise);
    const wait = await guard.enter(request.remote);
    if (wait)
      return { ok: false, status: 429, message: wait.message, retryAfterSeconds: wait.retryAfterSeconds };
    const decision = await admitSource(request, engine.live, authorise);
    // Anything but 401 means the password was right, and a right password never counts.
    if (decision.ok || decision.status !== 401) await guard.passed(request.remote);
    return decision;
  }

  // Real encoders send an unframed body: taken at the socket (see source-socket.ts).
  const unframed = takeUnframedSources(app.server, (request, socket, bodyStart) => {
    void acceptRawSource(request, socket, bodyStart).catch(() => socket.destroy());
  });
  app.addHook('preClose', async () => unframed.closePending());
  app.addHook('onClose', async () => unframed.restore());

  async function acceptRawSource(request: SourceRequest, socket: Socket, bodyStart: Buffer) {
    const decision = await admit(request);
    if (!decision.ok) {
      const body = `${decision.message}\n`;
      const extra =
        decision.status === 401
          ? `WWW-Authenticate: ${SOURCE_REALM}\r\n`
          : decision.status === 429
            ? `Retry-After: ${decision.retryAfterSeconds}\r\n`
            : '';
      socket.end(
        `HTTP/1.0 ${decision.status} ${STATUS_TEXT[decision.status]}\r\n${extra}Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        () => socket.destroy(),
      );
      return;
    }
    app.log.info(
      { remote: request.remote, by: who(decision.session.info.connectedBy) },
      'live source connected',
    );
    const expects = /100-continue/i.test(String(request.headers.expect ?? ''));
    socket.write(
      `${expects ? 'HTTP/1.1 100 Continue\r\n\r\n' : ''}HTTP/1.0 200 OK\r\nServer: Icecast 2.4.4\r\n\r\n`,
    );
    socket.setTimeout(SOURCE_IDLE_MS, () => socket.destroy());
    socket.setNoDelay(true);
    if (bodyStart.length) decision.session.write(bodyStart);
    decision.session.abort = () => socket.destroy();
    pipeSource(socket, decision.session, () => socket.destroy());
  }

  // Framed uploads (Content-Length or chunked, e.g. curl -T): through the router, body left unparsed.
  await sourceUploadRoute(app, async (request, reply) => {
    const decision = await admit({
      method: request.method,
      url: request.url,
      headers: request.headers,
      remote: request.ip,
    });
    if (!decision.ok) {
      if (decision.status === 429) reply.header('Retry-After', String(decision.retryAfterSeconds));
      return refuse(reply, decision.status, decision.message);
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.flushHeaders();
    request.raw.socket?.setTimeout(SOURCE_IDLE_MS, () => request.raw.destroy());
    decision.session.abort = () => request.raw.destroy();
    pipeSource(request.raw, decision.session, () => res.end());
  });

  /** The station's password announces for any live source; a presenter's only for their own. */
  const mayAnnounce = (owner: LiveSourceOwner) => {
    if (owner.kind === 'station') return true;
    const by = engine.live.session?.info.connectedBy;
    return by?.kind === 'presenter' && by.presenterId === owner.presenterId;
  };

  // Icecast's metadata update, as encoders send it (same credentials).
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/admin/metadata',
      { schema: { querystring: sourceMetadataQuerySchema } },
      async (request, reply) => {
        const wait = await guard.enter(request.ip);
        if (wait) {
          return reply
            .code(429)
            .header('Retry-After', String(wait.retryAfterSeconds))
            .type('text/xml')
            .send(iceResponse(wait.message, 0));
        }
        const allowed = await authorise(request.headers.authorization, request.ip);
        if (!allowed.ok && allowed.status === 401) {
          return reply
            .code(401)
            .header('WWW-Authenticate', SOURCE_REALM)
            .type('text/xml')
            .send(iceResponse('Authentication Required', 0));
        }
        await guard.passed(request.ip);
        if (!allowed.ok) return reply.code(403).type('text/xml').send(iceResponse(allowed.message, 0));
        if (request.query.mount !== '/stream' || !mayAnnounce(allowed.owner))
          return reply.code(400).type('text/xml').send(iceResponse('Source does not exist', 0));
        if (!engine.live.updateSong(request.query.song)) {
          return reply.code(400).type('text/xml').send(iceResponse('Source does not exist', 0));
        }
        return reply.type('text/xml').send(iceResponse('Metadata update successful', 1));
      },
    );
}

/** Who connected, for the log: the station's password or a presenter's name. */
const who = (owner: LiveSourceOwner | undefined) =>
  owner?.kind === 'presenter' ? `presenter ${owner.username}` : 'station source password';

function refuse(reply: FastifyReply, status: number, message: string) {
  if (status === 401) reply.header('WWW-Authenticate', SOURCE_REALM);
  // The encoder may still be sending its body: end the connection with the answer.
  return reply.code(status).header('Connection', 'close').send({ message });
}

/** Icecast's small XML answer to admin calls. */
function iceResponse(message: string, ok: 0 | 1): string {
  // A refusal may quote a programme's title: escaped, so the answer stays XML.
  const text = message.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<?xml version="1.0"?>\n<iceresponse><message>${text}</message><return>${ok}</return></iceresponse>\n`;
}

/**
 * A web instance (STATION_ROLE=web) has no engine: an encoder pointed at it is told where live audio goes,
 * with an answer an encoder shows (409), instead of a connection that seems to work and is never heard.
 */
export async function webInstanceSourceRoutes(app: FastifyInstance) {
  await sourceUploadRoute(app, async (_request, reply) =>
    refuse(reply, 409, 'This is a web instance (STATION_ROLE=web): send live audio to the broadcaster'),
  );
}

/** `PUT`/`SOURCE /stream` with a framed body, which the handler reads itself (no parser touches it). */
async function sourceUploadRoute(app: FastifyInstance, handler: RouteHandlerMethod) {
  await app.register(async (scope) => {
    scope.addHttpMethod('SOURCE', { hasBody: true });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({ method: ['PUT', 'SOURCE'], url: '/stream', handler });
  });
}
