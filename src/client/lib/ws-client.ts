import { serverMessageSchema, type ClientMessage, type ServerMessage } from '../../common/ws';

type Status = 'connecting' | 'open' | 'closed';

export interface WsClientOptions {
  url?: string;
  /** Makes the socket; tests pass a fake. */
  createSocket?: (url: string) => WebSocket;
  /** Reconnect delays: min doubling up to max. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** A ping is sent this often while open; a socket silent for twice as long is replaced. */
  heartbeatMs?: number;
}

const BROWSER_ID_KEY = 'station-browser-id';

/**
 * This browser's own random id for the station, kept in its storage: the station tells one listener's chat
 * messages from another's by it (a mute applies to one browser, not to everyone behind one address).
 */
export function browserId(
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.localStorage,
) {
  try {
    const known = storage?.getItem(BROWSER_ID_KEY);
    if (known) return known;
    const made = crypto.randomUUID();
    storage?.setItem(BROWSER_ID_KEY, made);
    return made;
  } catch {
    // Storage refused (private mode, blocked cookies): the station falls back on the address.
    return undefined;
  }
}

/** The page's own /ws address: wss when the page is https, with this browser's id. */
export function defaultWsUrl(
  loc: Pick<Location, 'protocol' | 'host'> = window.location,
  id: string | null = browserId() ?? null,
): string {
  const base = `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/ws`;
  return id ? `${base}?browser=${encodeURIComponent(id)}` : base;
}

/**
 * The one /ws socket of the page, in a plain class (STYLE.md habit 5): reconnects by itself with
 * exponential backoff, sends a heartbeat, and parses every message with the shared union before any
 * listener sees it (invalid messages are dropped).
 */
export class WsClient {
  private socket: WebSocket | undefined;
  private status: Status = 'closed';
  private attempt = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private lastHeard = 0;
  private readonly messageListeners = new Set<(message: ServerMessage) => void>();
  private readonly statusListeners = new Set<(status: Status) => void>();
  private readonly options: Required<Omit<WsClientOptions, 'url'>> & { url?: string };

  constructor(options: WsClientOptions = {}) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      minDelayMs: 1000,
      maxDelayMs: 30_000,
      heartbeatMs: 25_000,
      ...options,
    };
  }

  get currentStatus(): Status {
    return this.status;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeat);
    this.socket?.close();
    this.socket = undefined;
    this.setStatus('closed');
  }

  /** Sends when open; returns whether it was sent. */
  send(message: ClientMessage | Record<string, unknown>): boolean {
    if (this.socket?.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onStatus(listener: (status: Status) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Delay before the next reconnect: min doubling each attempt, capped at max. */
  nextDelay(): number {
    return Math.min(this.options.maxDelayMs, this.options.minDelayMs * 2 ** this.attempt);
  }

  private connect(): void {
    this.setStatus('connecting');
    const socket = this.options.createSocket(this.options.url ?? defaultWsUrl());
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.setStatus('open');
      this.startHeartbeat();
    };
    socket.onmessage = (event: MessageEvent) => {
      this.lastHeard = Date.now();
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = serverMessageSchema.safeParse(data);
      if (!parsed.success) return;
      for (const l of this.messageListeners) l(parsed.data);
    };
    // Errors are followed by close; the reconnect happens there.
    socket.onerror = () => {};
    socket.onclose = () => {
      if (this.socket !== socket) return;
      clearInterval(this.heartbeat);
      this.socket = undefined;
      this.setStatus('closed');
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    const delay = this.nextDelay();
    this.attempt++;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delay);
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastHeard > this.options.heartbeatMs * 2) {
        // Silent for too long: the connection is dead without having said so.
        this.socket?.close();
        return;
      }
      this.send({ type: 'ping' });
    }, this.options.heartbeatMs);
  }

  private setStatus(status: Status): void {
    if (this.status === status) return;
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }
}

let shared: WsClient | undefined;

/** The page's shared socket, started on first use. */
export function getWsClient(): WsClient {
  shared ??= new WsClient();
  shared.start();
  return shared;
}
