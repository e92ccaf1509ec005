// One load-generator process: opens its share of chat clients on /ws and notes, per message, how many of
// them got it and when the last one did. Frames are matched on their bytes, never parsed, so the clients
// cost little next to the server under test.
import WebSocket from 'ws';

export interface WorkerInput {
  /**
   * Each server measured: this process opens `count` clients to each, all connected throughout. A server
   * given as several URLs (instances of one station) has its clients spread over them in turn.
   */
  urls: (string | string[])[];
  /** Which process this is, so every client's browser id is its own. */
  index: number;
  count: number;
  /** Connections this process opens per second while ramping up. */
  perSecond: number;
  /** Highest sequence number the senders will use (numbers are unique across the servers). */
  maxSeq: number;
}

export type ToWorker = { type: 'collect' } | { type: 'close' };
export type FromWorker =
  | { type: 'ready'; open: number[]; failed: number[] }
  | {
      type: 'result';
      /** Per sequence number: clients of this process that received it. */
      counts: number[];
      /** Per sequence number: when the first and the last of them did (ms since the epoch, 0 when none did). */
      firstAt: number[];
      lastAt: number[];
      /** Per server, clients open now; and those that closed after they had connected (dropped). */
      open: number[];
      dropped: number[];
      /** What else each server sent to everyone, as its first client here saw it (type, ms since the epoch). */
      others: { server: number; type: string; at: number }[];
    };

const input = JSON.parse(process.env.BENCH_CHAT_WORKER ?? '{}') as WorkerInput;
const send = (message: FromWorker) => process.send!(message);
const now = () => performance.timeOrigin + performance.now();

const counts = new Uint32Array(input.maxSeq + 1);
const firstAt = new Float64Array(input.maxSeq + 1);
const lastAt = new Float64Array(input.maxSeq + 1);
// A chat frame starts with these bytes (chat_history, presence and now_playing do not); the sender put
// `seq:N;` in the message text.
const CHAT = Buffer.from('{"type":"chat",');
const SEQ = /seq:(\d+);/;

function onFrame(data: Buffer) {
  if (data.length < CHAT.length || data.compare(CHAT, 0, CHAT.length, 0, CHAT.length) !== 0) return;
  const at = now();
  const match = SEQ.exec(data.toString('latin1'));
  if (!match) return; // a message from outside the run
  const seq = Number(match[1]);
  if (seq > input.maxSeq) return;
  if (counts[seq]!++ === 0) firstAt[seq] = at;
  if (at > lastAt[seq]!) lastAt[seq] = at;
}

// Now playing and presence go to every client too: each one costs the server a send to all.
const others: { server: number; type: string; at: number }[] = [];
const OTHER = /^\{"type":"(now_playing|presence|chat_deleted)"/;
function noteOther(server: number, data: Buffer) {
  const type = OTHER.exec(data.toString('latin1', 0, 32))?.[1];
  if (type) others.push({ server, type, at: now() });
}

const clients: WebSocket[] = [];
const total = input.count * input.urls.length;
const open = input.urls.map(() => 0);
const failed = input.urls.map(() => 0);
const dropped = input.urls.map(() => 0);
let readySent = false;

// Clients come from many addresses, as listeners do: each process has its own 127.<10+index>.x.y block
// (Linux routes all of 127.0.0.0/8 to lo), at most 400 to an address, under the station's default cap of
// open sockets per address (MAX_SOCKETS_PER_ADDRESS, 500), which it keeps as a new user runs it.
const CLIENTS_PER_ADDRESS = 400;
function clientAddress(i: number) {
  const n = Math.floor(i / CLIENTS_PER_ADDRESS);
  return `127.${10 + input.index}.${Math.floor(n / 250)}.${1 + (n % 250)}`;
}

function connect(i: number) {
  const server = i % input.urls.length;
  const entry = input.urls[server]!;
  const url = typeof entry === 'string' ? entry : entry[Math.floor(i / input.urls.length) % entry.length]!;
  // A browser id of the allowed shape (16-64 of [\w-]), one per client, as a real browser sends.
  const browser = `bench-${input.index}-${i}-${Math.random().toString(36).slice(2, 10)}`;
  const socket = new WebSocket(`${url}?browser=${browser}`, {
    localAddress: clientAddress(i),
    perMessageDeflate: false,
    skipUTF8Validation: true,
  });
  let opened = false;
  socket.on('open', () => {
    opened = true;
    open[server]!++;
    settled();
  });
  socket.on('message', onFrame);
  if (i < input.urls.length) socket.on('message', (data: Buffer) => noteOther(server, data));
  socket.on('error', () => {});
  socket.on('close', () => {
    if (opened) {
      open[server]!--;
      dropped[server]!++;
    } else {
      failed[server]!++;
      settled();
    }
  });
  clients.push(socket);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
function settled() {
  if (!readySent && clients.length === total && sum(open) + sum(failed) === total) {
    readySent = true;
    send({ type: 'ready', open, failed });
  }
}

// Ramp: small batches every 10 ms at the requested rate, the servers taking turns.
const batch = Math.max(1, Math.round(input.perSecond / 100));
const ramp = setInterval(() => {
  for (let i = 0; i < batch && clients.length < total; i++) connect(clients.length);
  if (clients.length >= total) clearInterval(ramp);
}, 10);

process.on('message', (message: ToWorker) => {
  if (message.type === 'collect') {
    send({
      type: 'result',
      counts: Array.from(counts),
      firstAt: Array.from(firstAt),
      lastAt: Array.from(lastAt),
      open,
      dropped,
      others,
    });
  } else {
    clearInterval(ramp);
    for (const socket of clients) socket.terminate();
    process.exit(0);
  }
});
