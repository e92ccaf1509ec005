import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from '@fastify/websocket';
import { nowPlayingSchema, type NowPlaying } from '../../common/radio.js';
import type { NowPlayingSource } from '../radio/now-playing-source.js';
import { clientMessageSchema, type ClientMessage, type ServerMessage } from '../../common/ws.js';
import { FanOut, writePrepared, type Prepared } from './fan-out.js';

/** One connected browser. */
export interface RealtimeClient {
  readonly id: number;
  readonly ip: string;
  /** The browser's own id for this station (`/ws?browser=...`, kept in its storage), when it gave one. */
  readonly browserId: string | undefined;
  send(message: ServerMessage): void;
}

type Handler<T extends ClientMessage['type']> = (
  message: Extract<ClientMessage, { type: T }>,
  client: RealtimeClient,
) => void | Promise<void>;

/** Messages that state how things are now: a browser needs only the latest of each type. */
export type StateMessage = Extract<ServerMessage, { type: 'now_playing' | 'presence' }>;

export interface Realtime {
  /** Sends a message to every connected browser of this instance, in order with the other broadcasts. */
  broadcast(message: ServerMessage): void;
  /** Sends state to every browser behind the ordered broadcasts: a newer one replaces one not sent yet. */
  broadcastState(message: StateMessage): void;
  /** Handles one client message type (chat and later features plug in here). */
  on<T extends ClientMessage['type']>(type: T, handler: Handler<T>): void;
  /** Runs for every new connection, e.g. to send history. */
  onConnect(handler: (client: RealtimeClient) => void | Promise<void>): void;
  /** Runs when a connection closes, e.g. to forget what it asked for. */
  onDisconnect(handler: (client: RealtimeClient) => void): void;
  /** Connected browsers on every app instance (this one's live, the others' as last shared). */
  clientCount(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** A browser's own id (kept in its storage) is a random string of this shape; anything else is ignored. */
const BROWSER_ID = /^[\w-]{16,64}$/;

/** The `browser` query parameter of the upgrade request, when it is such an id. */
const browserIdOf = (query: unknown): string | undefined => {
  const value = (query as Record<string, unknown> | null)?.browser;
  return typeof value === 'string' && BROWSER_ID.test(value) ? value : undefined;
};

/** A browser this far behind on reading is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/** A client sending malformed messages is logged at most this often; the ones in between are counted. */
const MALFORMED_LOG_EVERY_MS = 60_000;
/** The bus topic that carries now playing between instances. */
export const NOW_PLAYING_TOPIC = 'now_playing';

/**
 * /ws: every message is parsed with the shared schema on receipt (a bad one gets an `error` message,
 * never a crash); features register handlers by message type and broadcast through `app.realtime`.
 */
export default fp(
  async function realtime(app: FastifyInstance) {
    const nowPlaying: NowPlayingSource = app.nowPlaying;
    // Browsers are told how many listen on every instance, not only on the one they reached.
    const withAllListeners = (np: NowPlaying): NowPlaying => ({ ...np, listeners: app.listenersNow() });
    const sockets = new Map<WebSocket, RealtimeClient>();
    // Open sockets per address on this instance: one address holding thousands of them pins memory and
    // slows every broadcast; a congregation behind one NAT stays well under the cap.
    const perAddress = new Map<string, number>();
    const cap = app.config.maxSocketsPerAddress;
    const tooMany = `Too many connections from this address (at most ${cap} at once)`;
    const handlers = new Map<string, Handler<ClientMessage['type']>>();
    const connectHandlers: ((client: RealtimeClient) => void | Promise<void>)[] = [];
    const disconnectHandlers: ((client: RealtimeClient) => void)[] = [];
    let nextId = 1;

    const writable = (socket: WebSocket) => {
      if (socket.readyState !== socket.OPEN) return false;
      if (socket.bufferedAmount <= MAX_BUFFERED_BYTES) return true;
      socket.terminate();
      return false;
    };
    // Broadcasts are serialised and framed once, whatever the number of browsers (fan-out.ts).
    const fanOut = new FanOut(
      () => sockets.keys(),
      (socket: WebSocket, prepared: Prepared) => {
        if (writable(socket)) writePrepared(socket, prepared);
      },
    );
    const send = (socket: WebSocket, message: ServerMessage) => {
      // Broadcasts waiting for the end of this turn go first, so this browser sees them in order.
      fanOut.flush();
      if (writable(socket)) socket.send(JSON.stringify(message));
    };

    const hub: Realtime = {
      broadcast(message) {
        fanOut.now(JSON.stringify(message));
      },
      broadcastState(message) {
        fanOut.latest(message.type, JSON.stringify(message));
      },
      on(type, handler) {
        handlers.set(type, handler as unknown as Handler<ClientMessage['type']>);
      },
      onConnect(handler) {
        connectHandlers.push(handler);
      },
      onDisconnect(handler) {
        disconnectHandlers.push(handler);
      },
      clientCount: app.sharedCounts.count('chatting', () => sockets.size),
    };
    app.decorate('realtime', hub);

    hub.on('ping', (_message, client) => client.send({ type: 'pong' }));

    const fail = (client: RealtimeClient, message: string) => client.send({ type: 'error', message });

    // Refused at the handshake: a browser's socket never opens, so its reconnect delay keeps doubling.
    const preValidation = async (request: FastifyRequest, reply: FastifyReply) => {
      if ((perAddress.get(request.ip) ?? 0) < cap) return;
      return reply.code(429).header('Retry-After', '30').send({ message: tooMany });
    };

    app.get('/ws', { websocket: true, preValidation }, (socket, request) => {
      // Handshakes that passed the check together may overshoot it: those are closed at once (1013: try later).
      const open = perAddress.get(request.ip) ?? 0;
      if (open >= cap) return socket.close(1013, tooMany);
      perAddress.set(request.ip, open + 1);
      const client: RealtimeClient = {
        id: nextId++,
        ip: request.ip,
        browserId: browserIdOf(request.query),
        send: (message) => send(socket, message),
      };
      sockets.set(socket, client);
      let alive = true;
      socket.on('pong', () => (alive = true));
      const heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, HEARTBEAT_MS);
      heartbeat.unref();
      socket.on('close', () => {
        clearInterval(heartbeat);
        sockets.delete(socket);
        const left = (perAddress.get(client.ip) ?? 1) - 1;
        if (left > 0) perAddress.set(client.ip, left);
        else perAddress.delete(client.ip);
        for (const handler of disconnectHandlers) handler(client);
      });
      socket.on('error', () => socket.terminate());
      // One client's stream of malformed messages must not fill the log: one line a minute, with a count.
      let malformedLoggedAt = -Infinity;
      let malformedUnlogged = 0;
      const refuse = (reason: string) => {
        const now = Date.now();
        if (now - malformedLoggedAt < MALFORMED_LOG_EVERY_MS) malformedUnlogged++;
        else {
          request.log.warn(
            { client: client.id, ip: client.ip, reason, sinceLastLogged: malformedUnlogged },
            'malformed WebSocket message',
          );
          malformedLoggedAt = now;
          malformedUnlogged = 0;
        }
        fail(client, reason);
      };
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return refuse('Messages must be JSON text');
        let json: unknown;
        try {
          json = JSON.parse(data.toString());
        } catch {
          return refuse('Messages must be JSON text');
        }
        const parsed = clientMessageSchema.safeParse(json);
        if (!parsed.success) return refuse('Unknown or malformed message');
        const handler = handlers.get(parsed.data.type);
        if (!handler) return refuse(`Unsupported message type: ${parsed.data.type}`);
        Promise.resolve()
          .then(() => handler(parsed.data, client))
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'WebSocket handler failed');
            fail(client, 'Something went wrong on our side. Please try again.');
          });
      });
      send(socket, { type: 'now_playing', data: withAllListeners(nowPlaying.nowPlaying()) });
      for (const handler of connectHandlers) {
        Promise.resolve()
          .then(() => handler(client))
          .catch((error: unknown) => request.log.error({ err: error }, 'WebSocket connect handler failed'));
      }
    });

    // Now playing: each change goes over the bus, so every instance pushes the same to its browsers. A web
    // instance's now playing came over the bus already (from the broadcaster): it only listens.
    const publish = (np: NowPlaying) => {
      app.bus
        .publish(NOW_PLAYING_TOPIC, withAllListeners(np))
        .catch((error: unknown) => app.log.warn({ err: error }, 'now playing not published'));
    };
    const unsubscribeSource = app.config.role === 'web' ? () => {} : nowPlaying.onChange(publish);
    const unsubscribeBus = app.bus.subscribe(NOW_PLAYING_TOPIC, (payload) => {
      const parsed = nowPlayingSchema.safeParse(payload);
      if (parsed.success) hub.broadcastState({ type: 'now_playing', data: parsed.data });
    });
    app.addHook('onClose', async () => {
      unsubscribeSource();
      unsubscribeBus();
      fanOut.stop();
    });
  },
  // The radio decorates nowPlaying, which every socket is told on connect and on each change.
  { name: 'realtime', dependencies: ['@fastify/websocket', 'radio'] },
);

/** How long a browser gets to answer the closing handshake before its socket is cut at shutdown. */
const CLOSE_GRACE_MS = 1_000;

/**
 * @fastify/websocket's `preClose`: every browser is told 1001 'going away'; a socket that does not answer
 * (a laptop asleep, a phone off the network) is cut after a short grace, so a stop never waits on it.
 */
export function goingAway(this: FastifyInstance, done: () => void) {
  const server = this.websocketServer;
  for (const client of server.clients) client.close(1001, 'Server going away');
  const cut = setTimeout(() => {
    for (const client of server.clients) client.terminate();
  }, CLOSE_GRACE_MS);
  server.close(() => {
    clearTimeout(cut);
    done();
  });
}
