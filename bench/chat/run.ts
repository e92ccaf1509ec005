// Many chat clients on one machine: every message to every client, and the time until the last client has
// it, for the station (npm start: persistence, moderation and flood limits on) beside a bare `ws`
// broadcast server measured in the same run with as many clients, the same senders and the same rate.
// Usage: node --import tsx bench/chat/run.ts [--clients N] [--seconds S] [--rate R] [--warmup S] [--turn S]
//        [--workers W] [--ramp PER_SECOND] [--target both|station|bare] [--cpu-prof DIR] [--series FILE]
//        (see README.md)
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { stopProcess } from '../../src/server/test/icecast-server';
import { cpuSeconds, rssBytes } from '../listeners/proc';
import { ensureBuilt } from '../server-build';
import type { FromWorker, ToWorker, WorkerInput } from './client-worker';
import { now, openSenders, sendersFor, type SenderPool, type Speaker } from './senders';
import { moderate, startBare, startStation, type Name, type Server, type Started } from './servers';

const MAX_CLIENTS = 20_000;
const GAP_MS = 1_000; // between turns: the last message of one reaches everyone before the other starts
const DRAIN_MS = 15_000; // after the last message: how long late deliveries are waited for

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '10' },
    turn: { type: 'string', default: '10' },
    workers: { type: 'string' },
    ramp: { type: 'string', default: '500' },
    target: { type: 'string', default: 'both' },
    'cpu-prof': { type: 'string' },
    series: { type: 'string' },
  },
});
const clients = Math.min(MAX_CLIENTS, Math.max(1, Math.round(Number(args.clients)) || 10_000));
const seconds = Math.min(600, Math.max(1, Number(args.seconds) || 60));
const rate = Math.min(100, Math.max(0.1, Number(args.rate) || 5));
const warmupSeconds = Math.min(120, Math.max(0, Number(args.warmup) || 0));
const turnSeconds = Math.max(1, Number(args.turn) || 10);
const wanted: Name[] =
  args.target === 'station' ? ['station'] : args.target === 'bare' ? ['bare ws'] : ['bare ws', 'station'];
const workers = Math.min(
  8,
  Math.max(1, Math.round(Number(args.workers)) || Math.max(2, Math.ceil((clients * wanted.length) / 10_000))),
);
const rampPerSecond = Math.max(10, Number(args.ramp) || 500);
const senderCount = sendersFor(rate);
const warmupMessages = Math.round(warmupSeconds * rate);
const measuredMessages = Math.max(1, Math.round(seconds * rate));
const turnMessages = Math.max(1, Math.round(turnSeconds * rate));
const maxSeq = wanted.length * (warmupMessages + measuredMessages);
const runId = randomBytes(6).toString('hex');

// --- limits: every client is a socket in a client process and one in the server ---------------------
const [softLimit, hardLimit] = execFileSync('sh', ['-c', 'ulimit -n; ulimit -Hn'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
const serverNeeds = clients + 2 * senderCount + 512; // each server process holds all its clients
const workerNeeds = Math.ceil(clients / workers) * wanted.length + 256;
if (softLimit! < Math.max(serverNeeds, workerNeeds)) {
  const needed = Math.max(serverNeeds, workerNeeds);
  console.log(`Open-file limit ${softLimit} is too low for ${clients} clients (need about ${needed}).`);
  console.log(
    `Raise it first: ulimit -n ${Math.min(hardLimit!, Math.max(needed, 8192))}  (hard limit ${hardLimit}), ` +
      `or give more client processes with --workers; then run again.`,
  );
  process.exit(2);
}

// --- cleanup: children end with us, on success, error, Ctrl-C or the overall time limit ---------------
const started: Started = { children: [], stops: [] };
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    await Promise.all(started.children.map((c) => stopProcess(c)));
    await Promise.all(started.stops.map((stop) => stop().catch(() => {})));
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  });
}
process.once('exit', () => started.children.forEach((c) => c.kill('SIGKILL')));
const timeLimitMs =
  ((clients * wanted.length) / rampPerSecond +
    wanted.length * (warmupSeconds + seconds) * (1 + GAP_MS / 1000 / turnSeconds) +
    DRAIN_MS / 1000 +
    300) *
  1000;
setTimeout(() => {
  console.log(`time limit of ${Math.round(timeLimitMs / 1000)} s reached: stopping`);
  void cleanup().then(() => process.exit(1));
}, timeLimitMs).unref();

// --- client processes -------------------------------------------------------------------------------------
function startWorkers(urls: string[]): ChildProcess[] {
  const base = Math.floor(clients / workers);
  return Array.from({ length: workers }, (_, index) => {
    const input: WorkerInput = {
      urls,
      index,
      count: base + (index < clients % workers ? 1 : 0),
      perSecond: rampPerSecond / workers,
      maxSeq,
    };
    const worker = fork(new URL('./client-worker.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_CHAT_WORKER: JSON.stringify(input) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    started.children.push(worker);
    return worker;
  });
}

function nextMessage<T extends FromWorker['type']>(worker: ChildProcess, type: T, ms: number) {
  return new Promise<Extract<FromWorker, { type: T }>>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return;
      done();
      resolve(message as Extract<FromWorker, { type: T }>);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`a client process exited (${code})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`a client process did not answer '${type}' within ${Math.round(ms / 1000)} s`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}
const tell = (pool: ChildProcess[], message: ToWorker) => pool.forEach((w) => w.send(message));
const collect = (pool: ChildProcess[]) => {
  const results = pool.map((w) => nextMessage(w, 'result', 30_000));
  tell(pool, { type: 'collect' });
  return Promise.all(results);
};

/** CPU seconds of each process now (those gone meanwhile left out). */
const cpuOf = (pids: number[]) => {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, cpuSeconds(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
};
/** CPU used since `before` by the processes alive now (a new one counts from 0). */
const cpuSince = (before: Map<number, number>, pids: number[]) =>
  [...cpuOf(pids)].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

// --- measurement ----------------------------------------------------------------------------------------
interface Target {
  server: Server;
  senders: SenderPool;
  moderation?: { speaker: Speaker; summary: string };
  /** The sequence numbers measured on this server. */
  seqs: number[];
  /**
   * CPU seconds over this server's turns, and the turns' length: its server, helpers, client processes;
   * and the other servers' while they wait (their idle clients' heartbeats, now playing...).
   */
  cpu: { server: number; helpers: number; workers: number[]; others: number; seconds: number };
  rss: number;
  connected: number;
  /** The measured turns, ms since the epoch. */
  turns: [number, number][];
}

interface Figures {
  name: Name;
  connected: number;
  dropped: number;
  receipts: number;
  /** Per message: to the last client, and to the first (the server's own path before it sends to all). */
  latencies: number[];
  firstLatencies: number[];
  /** When each measured message was sent (ms since the epoch), in the order of the latencies. */
  sent: number[];
  missing: number;
  senderErrors: number;
  sendersClosed: number;
  serverCores: number;
  helperCores: number;
  workerCores: number[];
  /** Now playing and presence messages this server sent to all during its turns. */
  nowPlaying: number;
  presence: number;
  /** The other server (and its database) while this one had its turn. */
  othersCores: number;
  rssMb: number;
  moderation?: string;
}

/** One server's turn: its senders speak, then a pause so that its last message is everywhere. */
async function turn(
  target: Target,
  others: Server[],
  pool: ChildProcess[],
  from: number,
  to: number,
  measured: boolean,
) {
  const { server } = target;
  const othersPids = others.flatMap((o) => [o.pid, ...o.helpers()]);
  const startedAt = performance.now();
  const cpu = cpuSeconds(server.pid);
  const othersCpu = cpuOf(othersPids);
  const startedAtEpoch = now();
  const helpers = cpuOf(server.helpers());
  const workerCpu = pool.map((w) => cpuSeconds(w.pid!));
  await target.senders.run(from, to, rate);
  await sleep(GAP_MS);
  if (!measured) return;
  for (let seq = from; seq <= to; seq++) target.seqs.push(seq);
  target.turns.push([startedAtEpoch, now()]);
  target.cpu.server += cpuSeconds(server.pid) - cpu;
  target.cpu.helpers += cpuSince(helpers, server.helpers());
  target.cpu.others += cpuSince(othersCpu, othersPids);
  pool.forEach((w, i) => (target.cpu.workers[i]! += cpuSeconds(w.pid!) - workerCpu[i]!));
  target.cpu.seconds += (performance.now() - startedAt) / 1000;
}

async function measure(servers: Server[]): Promise<Figures[]> {
  const targets: Target[] = [];
  for (const server of servers) {
    const senders = await openSenders(server.url, senderCount, runId);
    const target: Target = {
      server,
      senders,
      seqs: [],
      cpu: {
        server: 0,
        helpers: 0,
        workers: Array.from({ length: workers }, () => 0),
        others: 0,
        seconds: 0,
      },
      rss: 0,
      connected: 0,
      turns: [],
    };
    if (server.name === 'station')
      target.moderation = await moderate(server, senders, `127.0.0.${senderCount + 2}`, runId);
    targets.push(target);
  }

  console.log(
    `${clients} clients to each of ${servers.map((s) => s.name).join(' and ')} ` +
      `(${rampPerSecond} a second over ${workers} processes)...`,
  );
  const pool = startWorkers(servers.map((s) => s.url));
  const readyWithin = ((clients * servers.length) / rampPerSecond) * 1000 + 120_000;
  const ready = await Promise.all(pool.map((w) => nextMessage(w, 'ready', readyWithin)));
  targets.forEach((t, i) => (t.connected = ready.reduce((n, r) => n + r.open[i]!, 0)));
  console.log(
    `${targets.map((t) => `${t.connected} connected to ${t.server.name}`).join(', ')}; ` +
      `${warmupSeconds} s warm-up each, then ${seconds} s each measured in turns of ${turnSeconds} s...`,
  );

  const othersOf = (target: Target) => servers.filter((s) => s !== target.server);
  const sampler = setInterval(() => {
    for (const t of targets) t.rss = Math.max(t.rss, rssBytes(t.server.pid));
  }, 1000);
  let seq = 1;
  for (const target of targets) {
    if (warmupMessages === 0) continue;
    await turn(target, othersOf(target), pool, seq, seq + warmupMessages - 1, false);
    seq += warmupMessages;
  }
  const left = new Map(targets.map((t) => [t, measuredMessages]));
  while (targets.some((t) => left.get(t)! > 0)) {
    for (const target of targets) {
      const n = Math.min(turnMessages, left.get(target)!);
      if (n === 0) continue;
      await turn(target, othersOf(target), pool, seq, seq + n - 1, true);
      seq += n;
      left.set(target, left.get(target)! - n);
    }
  }
  clearInterval(sampler);

  // Every client has every message, or the drain time is over.
  const lastSent = performance.now();
  const receiptsOf = (parts: Extract<FromWorker, { type: 'result' }>[], q: number) =>
    parts.reduce((n, p) => n + p.counts[q]!, 0);
  let parts = await collect(pool);
  const complete = () => targets.every((t) => t.seqs.every((q) => receiptsOf(parts, q) >= t.connected));
  while (!complete() && performance.now() - lastSent < DRAIN_MS) {
    await sleep(500);
    parts = await collect(pool);
  }
  tell(pool, { type: 'close' });
  await Promise.all(pool.map((w) => stopProcess(w)));
  for (const w of pool) started.children.splice(started.children.indexOf(w), 1);

  return targets.map((target, index) => {
    const latencies: number[] = [];
    const firstLatencies: number[] = [];
    const sentTimes: number[] = [];
    let receipts = 0;
    let missing = 0;
    for (const q of target.seqs) {
      receipts += receiptsOf(parts, q);
      const last = Math.max(...parts.map((p) => p.lastAt[q]!));
      const first = Math.min(...parts.map((p) => p.firstAt[q]! || Infinity));
      const sent = target.senders.sentAt.get(q);
      if (last > 0 && sent !== undefined) {
        latencies.push(last - sent);
        firstLatencies.push(first - sent);
        sentTimes.push(sent);
      } else missing++;
    }
    const inTurns = (type: string) =>
      parts[0]!.others.filter(
        (o) => o.server === index && o.type === type && target.turns.some(([a, b]) => o.at >= a && o.at <= b),
      ).length;
    const figures: Figures = {
      name: target.server.name,
      connected: target.connected,
      dropped: parts.reduce((n, p) => n + p.dropped[index]!, 0),
      receipts,
      latencies,
      firstLatencies,
      sent: sentTimes,
      missing,
      senderErrors: target.senders.errors(),
      sendersClosed: target.senders.closedEarly(),
      serverCores: target.cpu.server / target.cpu.seconds,
      helperCores: target.cpu.helpers / target.cpu.seconds,
      workerCores: target.cpu.workers.map((c) => c / target.cpu.seconds),
      othersCores: target.cpu.others / target.cpu.seconds,
      nowPlaying: inTurns('now_playing'),
      presence: inTurns('presence'),
      rssMb: target.rss / 1024 / 1024,
      moderation: target.moderation?.summary,
    };
    target.senders.close();
    target.moderation?.speaker.close();
    return figures;
  });
}

// --- report ---------------------------------------------------------------------------------------------
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const count = (n: number) => n.toLocaleString('en-GB');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const expected = clients * measuredMessages;

function report(figures: Figures[]) {
  const line = (name: string, cells: string[]) =>
    console.log(name.padEnd(46) + cells.map((c) => c.padStart(24)).join(''));
  console.log('');
  line(
    `${count(clients)} clients, ${rate} msg/s, ${seconds} s (${count(measuredMessages)} messages)`,
    figures.map((f) => f.name),
  );
  const rows: [string, (f: Figures) => string][] = [
    ['clients connected (dropped)', (f) => `${count(f.connected)} (${f.dropped})`],
    ['delivered', (f) => `${((f.receipts / expected) * 100).toFixed(1)} %`],
    ['  receipts / clients x messages', (f) => `${count(f.receipts)} / ${count(expected)}`],
    [
      'latency to the last client p50 / p99 / max',
      (f) =>
        `${ms(percentile(f.latencies, 50))} / ${ms(percentile(f.latencies, 99))} / ${ms(Math.max(...f.latencies))}`,
    ],
    [
      '  to the first client p50 / p99 (ms)',
      (f) => `${ms(percentile(f.firstLatencies, 50))} / ${ms(percentile(f.firstLatencies, 99))}`,
    ],
    ['messages no client received', (f) => String(f.missing)],
    ['error frames to senders (senders closed)', (f) => `${f.senderErrors} (${f.sendersClosed})`],
    ['now playing / presence sent to all meanwhile', (f) => `${f.nowPlaying} / ${f.presence}`],
    ['server process CPU in its turns (cores)', (f) => f.serverCores.toFixed(2)],
    ['  its database processes (cores)', (f) => (f.name === 'station' ? f.helperCores.toFixed(2) : '-')],
    ['server process RSS peak (MB)', (f) => f.rssMb.toFixed(0)],
    ['client processes CPU in its turns (cores)', (f) => f.workerCores.map((c) => c.toFixed(2)).join(' ')],
  ];
  if (figures.length > 1) rows.push(['the other server meanwhile (cores)', (f) => f.othersCores.toFixed(2)]);
  for (const [name, cell] of rows) line(name, figures.map(cell));
  console.log(`(latencies in ms, from the sender's send to the receipt)`);
  console.log(
    `\n${senderCount} senders per server on 127.0.0.2-${senderCount + 1}, each with its own browser id, taking ` +
      `turns; ${warmupSeconds} s (${warmupMessages} messages) of warm-up per server not counted.`,
  );
  if (figures.length > 1)
    console.log(
      `Measured in the same run in alternating turns of ${turnSeconds} s (${turnMessages} messages), ` +
        `${figures[0]!.name} first, ${GAP_MS / 1000} s apart; both servers' clients connected throughout.`,
    );
  const station = figures.find((f) => f.name === 'station');
  if (station?.moderation) console.log(`Station moderation: ${station.moderation}.`);
  const bare = figures.find((f) => f.name === 'bare ws');
  if (station && bare) {
    const s = percentile(station.latencies, 99);
    const b = percentile(bare.latencies, 99);
    console.log(
      `Station p99 ${ms(s)} ms vs bare ws p99 ${ms(b)} ms: ${s <= b ? 'no worse (met)' : `worse by ${ms(s - b)} ms (NOT met)`}`,
    );
  }
}

// --- run ----------------------------------------------------------------------------------------------
try {
  // Built first, as a new user's station is: the figures are for running, not for building.
  if (wanted.includes('station')) ensureBuilt({ client: true });
  const servers: Server[] = [];
  for (const name of wanted) {
    console.log(`starting ${name}...`);
    servers.push(
      name === 'station' ? await startStation(started, args['cpu-prof']) : await startBare(started),
    );
  }
  const figures = await measure(servers);
  for (const server of servers) await server.stop();
  report(figures);
  if (args.series) {
    const series = figures.map(({ name, sent, latencies, firstLatencies }) => ({
      name,
      sent,
      latencies,
      firstLatencies,
    }));
    writeFileSync(args.series, JSON.stringify(series));
    console.log(`Each message's send time and latencies: ${args.series}`);
  }
  const failed = figures.filter(
    (f) => f.receipts < expected || f.senderErrors > 0 || f.sendersClosed > 0 || f.connected < clients,
  );
  if (failed.length > 0) {
    console.log(
      `FAILED: ${failed.map((f) => f.name).join(', ')}: not every message reached every client, or a sender was refused`,
    );
    process.exitCode = 1;
  }
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
