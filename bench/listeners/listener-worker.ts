// One load-generator process: opens its share of listeners on raw TCP sockets, counts what each receives.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface WorkerInput {
  host: string;
  port: number;
  /** The mounts listened to: listeners (and probes) take them in turn, listener k of this process the mount
   * (first + k) mod paths.length. Results name each listener's mount by its index here. */
  paths: string[];
  first?: number;
  count: number;
  /** Connections this process opens per second while ramping up. */
  perSecond: number;
  /** Audio counted as the connect burst: what arrives within this window after the first body byte. */
  burstWindowMs: number;
  /** During the steady window, a new listener connects this often, is timed, and leaves again. */
  probeEveryMs: number;
}

export type ToWorker = { type: 'window-start' } | { type: 'window-end' } | { type: 'close' };
export type FromWorker =
  | { type: 'ramped'; opened: number; receiving: number }
  | {
      type: 'result';
      ttfbMs: number[];
      burstBytes: number[];
      /** The mount (index in `paths`) of each figure in burstBytes. */
      burstMounts: number[];
      /** The same, for listeners that joined while all the others were listening. */
      probeTtfbMs: number[];
      probeBurstBytes: number[];
      probeBurstMounts: number[];
      /** Bytes per second of each listener over the steady window (NaN if it was gone before it). */
      rates: number[];
      /** The mount of each listener in `rates`, so each is checked against its own bitrate. */
      mounts: number[];
      connectErrors: number;
      badResponses: number;
      notMp3: number;
      closedEarly: number;
    };

interface Listener {
  socket: Socket;
  mount: number;
  openedAt: number;
  firstByteAt?: number;
  bodyAt?: number;
  head: Buffer | null; // response head until the blank line
  ok: boolean;
  mp3?: boolean;
  body: number;
  burst: number;
  closed: boolean;
  errored: boolean;
  windowStart?: { bytes: number; at: number };
  rate?: number;
}

const input = JSON.parse(process.env.BENCH_LISTENER_WORKER ?? '{}') as WorkerInput;
const send = (message: FromWorker) => process.send!(message);
const listeners: Listener[] = [];
const probes: Listener[] = [];
let probing: NodeJS.Timeout | undefined;
const requests = input.paths.map((path) =>
  Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${input.host}:${input.port}\r\nUser-Agent: station-bench/1\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
  ),
);

/** An MPEG audio frame sync (11 set bits) somewhere near the start of the body. */
const looksLikeMp3 = (chunk: Buffer) => {
  for (let i = 0; i + 1 < Math.min(chunk.length, 4096); i++) {
    if (chunk[i] === 0xff && (chunk[i + 1]! & 0xe0) === 0xe0) return true;
  }
  return false;
};

function countBody(listener: Listener, chunk: Buffer, now: number) {
  if (chunk.length === 0) return;
  if (listener.bodyAt === undefined) {
    listener.bodyAt = now;
    listener.mp3 = looksLikeMp3(chunk);
  }
  listener.body += chunk.length;
  if (now - listener.bodyAt <= input.burstWindowMs) listener.burst += chunk.length;
}

function open(into: Listener[]) {
  const mount = ((input.first ?? 0) + into.length) % requests.length;
  const listener: Listener = {
    socket: undefined!,
    mount,
    openedAt: performance.now(),
    head: Buffer.alloc(0),
    ok: false,
    body: 0,
    burst: 0,
    closed: false,
    errored: false,
  };
  const socket = connect({ host: input.host, port: input.port }, () => socket.write(requests[mount]!));
  listener.socket = socket;
  socket.on('data', (chunk: Buffer) => {
    const now = performance.now();
    listener.firstByteAt ??= now;
    if (listener.head) {
      const head = Buffer.concat([listener.head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        listener.head = head.length > 16_384 ? null : head;
        return;
      }
      listener.ok = /^HTTP\/1\.[01] 200|^ICY 200/.test(head.subarray(0, 32).toString('latin1'));
      listener.head = null;
      countBody(listener, head.subarray(end + 4), now);
      return;
    }
    countBody(listener, chunk, now);
  });
  socket.on('error', () => {
    listener.errored = true;
  });
  socket.on('close', () => {
    listener.closed = true;
  });
  into.push(listener);
  return listener;
}

/** A listener arriving while the others listen: timed, kept until its burst is in, then gone. */
function probe() {
  const listener = open(probes);
  setTimeout(() => listener.socket.destroy(), input.burstWindowMs + 1_000);
}

// Ramp: open connections in small batches every 10 ms at the requested rate; ramped once every listener
// receives audio or has failed (a SYN dropped by a full accept queue is retried by the kernel for a while).
const RAMP_WAIT_MS = 30_000;
const batch = Math.max(1, Math.round(input.perSecond / 100));
let openedAll: number | undefined;
const ramp = setInterval(() => {
  for (let i = 0; i < batch && listeners.length < input.count; i++) open(listeners);
  if (listeners.length < input.count) return;
  openedAll ??= performance.now();
  const settled = listeners.every((l) => l.bodyAt !== undefined || l.errored || l.closed);
  if (settled || performance.now() - openedAll > RAMP_WAIT_MS) {
    clearInterval(ramp);
    send({
      type: 'ramped',
      opened: listeners.length,
      receiving: listeners.filter((l) => l.bodyAt !== undefined && !l.closed).length,
    });
  }
}, 10);

process.on('message', (message: ToWorker) => {
  const now = performance.now();
  if (message.type === 'window-start') {
    for (const l of listeners) l.windowStart = { bytes: l.body, at: now };
    probing = setInterval(probe, input.probeEveryMs);
  } else if (message.type === 'window-end') {
    clearInterval(probing);
    for (const l of listeners) {
      l.rate =
        l.windowStart && !l.closed ? (l.body - l.windowStart.bytes) / ((now - l.windowStart.at) / 1000) : NaN;
    }
    const connected = listeners.filter((l) => l.firstByteAt !== undefined);
    const bursts = connected.filter((l) => l.ok);
    // Probes still inside their burst window are left out: their burst is not complete yet.
    const probeBursts = probes.filter(
      (l) => l.ok && l.bodyAt !== undefined && now - l.bodyAt > input.burstWindowMs,
    );
    send({
      type: 'result',
      ttfbMs: connected.map((l) => l.firstByteAt! - l.openedAt),
      burstBytes: bursts.map((l) => l.burst),
      burstMounts: bursts.map((l) => l.mount),
      probeTtfbMs: probes.filter((l) => l.firstByteAt !== undefined).map((l) => l.firstByteAt! - l.openedAt),
      probeBurstBytes: probeBursts.map((l) => l.burst),
      probeBurstMounts: probeBursts.map((l) => l.mount),
      rates: listeners.map((l) => l.rate ?? NaN),
      mounts: listeners.map((l) => l.mount),
      connectErrors: listeners.filter((l) => l.firstByteAt === undefined).length,
      badResponses: connected.filter((l) => !l.ok).length,
      notMp3: connected.filter((l) => l.ok && l.mp3 === false).length,
      closedEarly: listeners.filter((l) => l.closed && l.firstByteAt !== undefined).length,
    });
  } else {
    clearInterval(ramp);
    clearInterval(probing);
    for (const l of [...listeners, ...probes]) l.socket.destroy();
    process.exit(0);
  }
});
