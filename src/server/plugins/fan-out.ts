import WebSocket, * as wsModule from 'ws';

/**
 * The parts of ws this module leans on beyond its typings: the static `Sender.frame` (public in ws, absent
 * from @types/ws) and, per socket, its sender's state and `sendFrame`, the call `ws.send` ends in.
 */
interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
interface WsSender {
  _state: number;
  _queue: unknown[];
  sendFrame(list: Buffer[]): void;
}
type SenderClass = { frame?(data: Buffer, options: FrameOptions): Buffer[] };
// ws's ES module exports Sender by name; its CommonJS entry hangs it on the WebSocket class.
const Sender =
  (wsModule as unknown as { Sender?: SenderClass }).Sender ??
  (WebSocket as unknown as { Sender?: SenderClass }).Sender;
const TEXT = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false } satisfies FrameOptions;
/** ws's sender is idle (not compressing, nothing queued) in this state. */
const SENDER_IDLE = 0;

/** One or more text messages, encoded once and framed once, ready to be written to any number of sockets. */
export interface Prepared {
  /** The WebSocket frames back to back: one write per socket however many messages. */
  frames: Buffer | undefined;
  /** Each message's text, for a socket whose sender is busy (ws.send then frames it as usual). */
  payloads: Buffer[];
}

export function prepare(texts: string[]): Prepared {
  const payloads = texts.map((text) => Buffer.from(text));
  const framed = Sender?.frame ? payloads.flatMap((payload) => Sender.frame!(payload, TEXT)) : undefined;
  return { frames: framed && Buffer.concat(framed), payloads };
}

const senderOf = (socket: WebSocket) => (socket as unknown as { _sender?: WsSender })._sender;

/** Whether this socket takes a prepared frame as it is (ws idle: no compression, nothing queued). */
export function takesFrames(socket: WebSocket): boolean {
  const sender = senderOf(socket);
  return (
    sender !== undefined &&
    sender._state === SENDER_IDLE &&
    sender._queue.length === 0 &&
    typeof sender.sendFrame === 'function'
  );
}

/**
 * Writes prepared messages to an open socket: the frames as ws itself would write them (no per-socket
 * framing, copy or garbage), or one `ws.send` each when its sender is busy, so frames never interleave.
 */
export function writePrepared(socket: WebSocket, prepared: Prepared): void {
  if (prepared.frames && takesFrames(socket)) senderOf(socket)!.sendFrame([prepared.frames]);
  else for (const payload of prepared.payloads) socket.send(payload, { binary: false });
}

/** How many sockets one slice of a state message reaches before the loop turns (chat goes in between). */
export const STATE_SLICE = 500;

/**
 * Every message to every socket, in two lanes.
 * - `now`: ordered messages (chat, deletions). Those sent in one turn of the event loop go out together at
 *   its end, framed once, in one write per socket: a backlog (after a long pause) is caught up in one pass.
 * - `latest`: state (now playing, presence) where only the newest of each kind matters. Sent in slices of
 *   STATE_SLICE sockets with the loop turning in between, so a chat message never waits behind a whole
 *   pass; a newer value replaces one not sent yet.
 * `write` checks and writes one socket; `sockets` lists the open ones.
 */
export class FanOut {
  private ordered: string[] = [];
  private orderedSoon: NodeJS.Immediate | undefined;
  private readonly waiting = new Map<string, string>();
  private pass: { prepared: Prepared; sockets: WebSocket[]; next: number } | undefined;
  private passSoon: NodeJS.Immediate | undefined;

  constructor(
    private readonly sockets: () => Iterable<WebSocket>,
    private readonly write: (socket: WebSocket, prepared: Prepared) => void,
  ) {}

  now(text: string): void {
    this.ordered.push(text);
    this.orderedSoon ??= setImmediate(() => this.flush());
  }

  latest(kind: string, text: string): void {
    this.waiting.set(kind, text);
    this.passSoon ??= setImmediate(() => this.step());
  }

  /** Sends the ordered messages waiting now (before a message to one socket, so order holds). */
  flush(): void {
    if (this.orderedSoon) clearImmediate(this.orderedSoon);
    this.orderedSoon = undefined;
    if (this.ordered.length === 0) return;
    const prepared = prepare(this.ordered);
    this.ordered = [];
    for (const socket of this.sockets()) this.write(socket, prepared);
  }

  private step(): void {
    this.passSoon = undefined;
    if (!this.pass) {
      if (this.waiting.size === 0) return;
      this.pass = { prepared: prepare([...this.waiting.values()]), sockets: [...this.sockets()], next: 0 };
      this.waiting.clear();
    }
    const { prepared, sockets } = this.pass;
    const end = Math.min(sockets.length, this.pass.next + STATE_SLICE);
    for (let i = this.pass.next; i < end; i++) this.write(sockets[i]!, prepared);
    this.pass.next = end;
    if (end === sockets.length) this.pass = undefined;
    if (this.pass || this.waiting.size > 0) this.passSoon = setImmediate(() => this.step());
  }

  /** Drops what is waiting (the server is closing). */
  stop(): void {
    for (const soon of [this.orderedSoon, this.passSoon]) if (soon) clearImmediate(soon);
    this.orderedSoon = this.passSoon = undefined;
    this.ordered = [];
    this.waiting.clear();
    this.pass = undefined;
  }
}
