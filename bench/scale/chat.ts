// Chat on two targets in alternating turns, as bench/chat measures: the one-instance station, and the two web
// instances with their clients split half/half and the senders spread over both (so every other message
// crosses from one instance to the other through Redis). bench/chat's client processes, senders and
// moderation do the work; this file only runs the turns and adds up the receipts.
import { fork, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FromWorker, ToWorker, WorkerInput } from '../chat/client-worker';
import { openSenders, type SenderPool, type Speaker } from '../chat/senders';
import { moderate, type Server } from '../chat/servers';
import { cpuSeconds } from '../listeners/proc';

const GAP_MS = 1_000; // between turns: the last message of one reaches everyone before the other starts
const DRAIN_MS = 15_000; // after the last message: how long late deliveries are waited for

export interface ChatTarget {
  label: string;
  /** Where staff sign in and the muted sender speaks. */
  origin: string;
  urls: string[];
  /** The processes serving it (CPU in its turns). */
  pids: number[];
}

export interface ChatOptions {
  clients: number;
  workers: number;
  rampPerSecond: number;
  rate: number;
  senderCount: number;
  warmupMessages: number;
  measuredMessages: number;
  turnMessages: number;
  runId: string;
  onSpawn: (child: ChildProcess) => void;
  /** Told when the clients are connected and the turns begin. */
  onConnected?: (connected: number[]) => void;
}

export interface ChatFigures {
  label: string;
  urls: number;
  connected: number;
  dropped: number;
  receipts: number;
  expected: number;
  latencies: number[];
  firstLatencies: number[];
  missing: number;
  senderErrors: number;
  sendersClosed: number;
  cores: number;
  moderation: string;
}

type Result = Extract<FromWorker, { type: 'result' }>;

function next<T extends FromWorker['type']>(worker: ChildProcess, type: T, ms: number) {
  return new Promise<Extract<FromWorker, { type: T }>>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`a client process did not answer '${type}'`));
    }, ms);
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return;
      done();
      resolve(message as Extract<FromWorker, { type: T }>);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`a client process exited (${code})`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

export async function measureChat(targets: ChatTarget[], o: ChatOptions): Promise<ChatFigures[]> {
  const maxSeq = targets.length * (o.warmupMessages + o.measuredMessages);
  const state = await Promise.all(
    targets.map(async (target) => {
      const senders: SenderPool = await openSenders(target.urls, o.senderCount, o.runId);
      const server = { name: 'station', url: target.urls[0]!, origin: target.origin } as Server;
      const moderation: { speaker: Speaker; summary: string } = await moderate(
        server,
        senders,
        `127.0.0.${o.senderCount + 2}`,
        o.runId,
      );
      return { target, senders, moderation, seqs: [] as number[], cpu: 0, connected: 0 };
    }),
  );

  const base = Math.floor(o.clients / o.workers);
  const pool = Array.from({ length: o.workers }, (_, index) => {
    const input: WorkerInput = {
      urls: targets.map((t) => (t.urls.length === 1 ? t.urls[0]! : t.urls)),
      index,
      count: base + (index < o.clients % o.workers ? 1 : 0),
      perSecond: o.rampPerSecond / o.workers,
      maxSeq,
    };
    const worker = fork(new URL('../chat/client-worker.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_CHAT_WORKER: JSON.stringify(input) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    o.onSpawn(worker);
    return worker;
  });
  const readyWithin = ((o.clients * targets.length) / o.rampPerSecond) * 1000 + 120_000;
  const ready = await Promise.all(pool.map((w) => next(w, 'ready', readyWithin)));
  state.forEach((s, i) => (s.connected = ready.reduce((n, r) => n + r.open[i]!, 0)));
  o.onConnected?.(state.map((s) => s.connected));

  let seq = 1;
  const turnSeconds = new Map<(typeof state)[number], number>();
  const turn = async (s: (typeof state)[number], count: number, measured: boolean) => {
    const cpu = s.target.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const startedAt = performance.now();
    await s.senders.run(seq, seq + count - 1, o.rate);
    await sleep(GAP_MS);
    if (measured) {
      for (let q = seq; q < seq + count; q++) s.seqs.push(q);
      s.cpu += s.target.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpu;
      turnSeconds.set(s, (turnSeconds.get(s) ?? 0) + (performance.now() - startedAt) / 1000);
    }
    seq += count;
  };
  for (const s of state) if (o.warmupMessages > 0) await turn(s, o.warmupMessages, false);
  const left = new Map(state.map((s) => [s, o.measuredMessages]));
  while (state.some((s) => left.get(s)! > 0)) {
    for (const s of state) {
      const n = Math.min(o.turnMessages, left.get(s)!);
      if (n === 0) continue;
      await turn(s, n, true);
      left.set(s, left.get(s)! - n);
    }
  }

  // Every client has every message, or the drain time is over.
  const tell = (message: ToWorker) => pool.forEach((w) => w.send(message));
  const collect = () => {
    const results = pool.map((w) => next(w, 'result', 30_000));
    tell({ type: 'collect' });
    return Promise.all(results);
  };
  const receiptsOf = (parts: Result[], q: number) => parts.reduce((n, p) => n + p.counts[q]!, 0);
  const lastSent = performance.now();
  let parts = await collect();
  const complete = () => state.every((s) => s.seqs.every((q) => receiptsOf(parts, q) >= s.connected));
  while (!complete() && performance.now() - lastSent < DRAIN_MS) {
    await sleep(500);
    parts = await collect();
  }
  tell({ type: 'close' });

  return state.map((s, index) => {
    const latencies: number[] = [];
    const firstLatencies: number[] = [];
    let receipts = 0;
    let missing = 0;
    for (const q of s.seqs) {
      receipts += receiptsOf(parts, q);
      const last = Math.max(...parts.map((p) => p.lastAt[q]!));
      const first = Math.min(...parts.map((p) => p.firstAt[q]! || Infinity));
      const sent = s.senders.sentAt.get(q);
      if (last > 0 && sent !== undefined) {
        latencies.push(last - sent);
        firstLatencies.push(first - sent);
      } else missing++;
    }
    const figures: ChatFigures = {
      label: s.target.label,
      urls: s.target.urls.length,
      connected: s.connected,
      dropped: parts.reduce((n, p) => n + p.dropped[index]!, 0),
      receipts,
      expected: o.clients * s.seqs.length,
      latencies,
      firstLatencies,
      missing,
      senderErrors: s.senders.errors(),
      sendersClosed: s.senders.closedEarly(),
      cores: s.cpu / (turnSeconds.get(s) ?? 1),
      moderation: s.moderation.summary,
    };
    s.senders.close();
    s.moderation.speaker.close();
    return figures;
  });
}
