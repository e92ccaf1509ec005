// Concurrent listeners on loopback against our station, and against Icecast on the same source in the
// same run: bitrate kept, time to first byte, connect burst, server CPU and memory.
// Usage: node --import tsx bench/listeners/run.ts [--listeners N] [--seconds S] [--workers W]
//        [--ramp PER_SECOND] [--target both|ours|icecast] [--file AUDIO]          (see README.md)
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { stopProcess } from '../../src/server/test/icecast-server';
import { ensureBuilt } from '../server-build';
import type { FromWorker, ToWorker, WorkerInput } from './listener-worker';
import { cpuSeconds, listenOverflows, rssBytes } from './proc';
import { startIcecastTarget, startOurs, startSource, type Target } from './targets';

const BITRATE_BYTES = 128_000 / 8;
const BURST_WINDOW_MS = 500;
const PROBES_PER_SECOND = 10; // new listeners timed during the steady window, across all processes
const SETTLE_MS = 3_000; // after the last connect: bursts delivered, every listener at real-time pace
const IDLE_MS = 3_000; // CPU of the server with the source but no listeners
const MAX_LISTENERS = 20_000;
const MAX_SECONDS = 600;

const { values: args } = parseArgs({
  options: {
    listeners: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    workers: { type: 'string' },
    ramp: { type: 'string', default: '500' },
    target: { type: 'string', default: 'both' },
    file: { type: 'string' },
  },
});
const listeners = Math.min(MAX_LISTENERS, Math.max(1, Number(args.listeners) || 200));
const seconds = Math.min(MAX_SECONDS, Math.max(5, Number(args.seconds) || 20));
const workers = Math.min(8, Math.max(1, Number(args.workers) || Math.min(4, Math.ceil(listeners / 1_000))));
const rampPerSecond = Math.max(10, Number(args.ramp) || 500);
const wanted = args.target === 'ours' || args.target === 'icecast' ? [args.target] : ['ours', 'icecast'];

const has = (command: string, ...flags: string[]) =>
  spawnSync(command, flags, { stdio: 'ignore' }).status === 0;

// --- limits: every listener is a socket here and one in the server ---------------------------------
const [softLimit, hardLimit] = execFileSync('sh', ['-c', 'ulimit -n; ulimit -Hn'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
const needed = listeners + 256;
if (softLimit! < needed) {
  console.log(`Open-file limit ${softLimit} is too low for ${listeners} listeners (need about ${needed}).`);
  console.log(
    `Raise it first: ulimit -n ${Math.min(hardLimit!, Math.max(needed, 8192))}  (hard limit ${hardLimit}), then run again.`,
  );
  process.exit(2);
}
if (!has('ffmpeg', '-version')) {
  console.log('ffmpeg is needed as the live source (apt-get install -y ffmpeg).');
  process.exit(2);
}

// --- cleanup: children end with us, on success, error, Ctrl-C or the overall time limit ---------------
const children: ChildProcess[] = [];
const targets: Target[] = [];
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    await Promise.all(children.map((c) => stopProcess(c)));
    await Promise.all(targets.map((t) => t.stop().catch(() => {})));
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  });
}
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
const timeLimitMs = wanted.length * (listeners / rampPerSecond + seconds + 90) * 1000 + 120_000;
setTimeout(() => {
  console.log(`time limit of ${Math.round(timeLimitMs / 1000)} s reached: stopping`);
  void cleanup().then(() => process.exit(1));
}, timeLimitMs).unref();

// --- measurement ----------------------------------------------------------------------------------------
interface Figures {
  name: string;
  connected: number;
  below95: number;
  dropped: number;
  failed: number;
  /** New listeners while the others listen (the target's figure), and during the ramp (a crowd arriving). */
  ttfbP50: number;
  ttfbP99: number;
  rampTtfbP50: number;
  rampTtfbP99: number;
  burstMedianS: number;
  burstP1S: number;
  rateMedianKbps: number;
  idleCores: number;
  busyCores: number;
  /** CPU seconds per second (cores) that 1,000 listeners cost, idle source cost removed. */
  coresPer1000: number;
  rssMb: number;
  /** Accept-queue overflows while this server was measured (system-wide counter). */
  overflows: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

/** Listener processes: the load spread over several, so the load generator is not the bottleneck. */
function startWorkers(target: Target): ChildProcess[] {
  const base = Math.floor(listeners / workers);
  return Array.from({ length: workers }, (_, i) => {
    const count = base + (i < listeners % workers ? 1 : 0);
    const workerData: WorkerInput = {
      host: '127.0.0.1',
      port: target.port,
      path: target.path,
      count,
      perSecond: rampPerSecond / workers,
      burstWindowMs: BURST_WINDOW_MS,
      probeEveryMs: Math.round((1000 * workers) / PROBES_PER_SECOND),
    };
    const worker = fork(new URL('./listener-worker.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_LISTENER_WORKER: JSON.stringify(workerData) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(worker);
    return worker;
  });
}

const nextMessage = (worker: ChildProcess, type: FromWorker['type']) =>
  new Promise<FromWorker>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return;
      worker.off('message', onMessage);
      resolve(message);
    };
    worker.on('message', onMessage);
    worker.once('exit', (code) => reject(new Error(`a listener process exited (${code})`)));
  });
const tell = (pool: ChildProcess[], message: ToWorker) => pool.forEach((w) => w.send(message));

async function measure(target: Target): Promise<Figures> {
  const idleStart = cpuSeconds(target.pid);
  await sleep(IDLE_MS);
  const idleCores = (cpuSeconds(target.pid) - idleStart) / (IDLE_MS / 1000);

  const overflowsBefore = listenOverflows();
  const pool = startWorkers(target);
  await Promise.all(pool.map((w) => nextMessage(w, 'ramped')));
  await sleep(SETTLE_MS);

  tell(pool, { type: 'window-start' });
  const cpuStart = cpuSeconds(target.pid);
  const startedAt = performance.now();
  let rss = 0;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    rss = Math.max(rss, rssBytes(target.pid));
  }
  const results = pool.map((w) => nextMessage(w, 'result'));
  tell(pool, { type: 'window-end' });
  const busyCores = (cpuSeconds(target.pid) - cpuStart) / ((performance.now() - startedAt) / 1000);
  const parts = (await Promise.all(results)) as Extract<FromWorker, { type: 'result' }>[];
  const overflows = listenOverflows() - overflowsBefore;
  tell(pool, { type: 'close' });
  await Promise.all(pool.map((w) => stopProcess(w)));
  for (const w of pool) children.splice(children.indexOf(w), 1);

  const all = <K extends keyof (typeof parts)[number]>(key: K) =>
    parts.flatMap((p) => p[key] as unknown as number[]);
  const sum = (key: 'connectErrors' | 'badResponses' | 'notMp3' | 'closedEarly') =>
    parts.reduce((n, p) => n + p[key], 0);
  const rates = all('rates');
  const served = rates.filter((r) => Number.isFinite(r) && r > 0).length;
  const kept = rates.filter((r) => Number.isFinite(r));
  const burstSeconds = [...all('burstBytes'), ...all('probeBurstBytes')].map((b) =>
    Math.max(0, b / BITRATE_BYTES - BURST_WINDOW_MS / 1000),
  );
  return {
    name: target.name,
    connected: listeners - sum('connectErrors') - sum('badResponses') - sum('notMp3'),
    below95: rates.filter((r) => !(r >= 0.95 * BITRATE_BYTES)).length,
    dropped: sum('closedEarly'),
    failed: sum('connectErrors') + sum('badResponses') + sum('notMp3'),
    ttfbP50: percentile(all('probeTtfbMs'), 50),
    ttfbP99: percentile(all('probeTtfbMs'), 99),
    rampTtfbP50: percentile(all('ttfbMs'), 50),
    rampTtfbP99: percentile(all('ttfbMs'), 99),
    burstMedianS: percentile(burstSeconds, 50),
    burstP1S: percentile(burstSeconds, 1),
    rateMedianKbps: (percentile(kept, 50) * 8) / 1000,
    idleCores,
    busyCores,
    // Per listener actually served: a server that refused some is not credited for them.
    coresPer1000: (Math.max(0, busyCores - idleCores) / Math.max(1, served)) * 1000,
    rssMb: rss / 1024 / 1024,
    overflows,
  };
}

// --- run ----------------------------------------------------------------------------------------------
function report(figures: Figures[]) {
  const ours = figures.find((f) => f.name === 'ours');
  const icecast = figures.find((f) => f.name === 'icecast');
  const rows: [string, (f: Figures) => string][] = [
    ['listeners connected (200, MP3)', (f) => `${f.connected} / ${listeners}`],
    ['listeners below 95 % of 128 kbps', (f) => `${f.below95} (dropped ${f.dropped}, failed ${f.failed})`],
    ['median received bitrate', (f) => `${f.rateMedianKbps.toFixed(1)} kbps`],
    ['TTFB joining N listening p50 / p99', (f) => `${f.ttfbP50.toFixed(1)} / ${f.ttfbP99.toFixed(1)} ms`],
    ['TTFB during the ramp p50 / p99', (f) => `${f.rampTtfbP50.toFixed(1)} / ${f.rampTtfbP99.toFixed(1)} ms`],
    ['audio in first burst median / p1', (f) => `${f.burstMedianS.toFixed(2)} / ${f.burstP1S.toFixed(2)} s`],
    ['server CPU idle (source only)', (f) => `${(f.idleCores * 100).toFixed(1)} % of a core`],
    ['server CPU with listeners', (f) => `${(f.busyCores * 100).toFixed(1)} % of a core`],
    ['CPU per 1,000 listeners served (net)', (f) => `${f.coresPer1000.toFixed(3)} CPU-s/s`],
    ['server RSS (max)', (f) => `${f.rssMb.toFixed(1)} MB`],
    ['accept queue overflows (SYN retried)', (f) => String(f.overflows)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(
    `\n${listeners} listeners, ${seconds} s steady window, ${workers} load processes, ramp ${rampPerSecond}/s\n`,
  );
  console.log(`${''.padEnd(width)}  ${figures.map((f) => f.name.padEnd(28)).join('')}`);
  for (const [label, cell] of rows)
    console.log(`${label.padEnd(width)}  ${figures.map((f) => cell(f).padEnd(28)).join('')}`);

  const ratio = ours && icecast ? ours.coresPer1000 / icecast.coresPer1000 : NaN;
  if (ours && icecast)
    console.log(`\nCPU per listener, ours / Icecast: ${Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a'}`);
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'met' : 'NOT met');
  console.log('\nTargets (ours):');
  console.log(
    `  5,000 listeners, none below 95 %:              ${ours ? (listeners >= 5_000 ? verdict(ours.below95 === 0) : `run with --listeners 5000 (now ${ours.below95} below at ${listeners})`) : 'not measured'}`,
  );
  console.log(
    `  CPU per listener <= 2x Icecast:                ${verdict(Number.isFinite(ratio) ? ratio <= 2 : undefined)}`,
  );
  console.log(
    `  TTFB p99 < 50 ms at 1,000, >= 2 s first burst: ${ours ? (listeners >= 1_000 ? `${verdict(ours.ttfbP99 < 50 && ours.burstP1S >= 2)} at ${listeners} listeners` : `run with --listeners 1000 (now p99 ${ours.ttfbP99.toFixed(1)} ms, burst p1 ${ours.burstP1S.toFixed(2)} s)`) : 'not measured'}`,
  );
}

try {
  if (wanted.includes('ours')) {
    ensureBuilt();
    targets.push(await startOurs(Math.min(hardLimit!, needed + 1024), (child) => children.push(child)));
  }
  if (wanted.includes('icecast')) {
    if (has('icecast2', '-v'))
      targets.push(await startIcecastTarget(listeners, (child) => children.push(child)));
    else
      console.log(
        'icecast2 is not installed: measuring our server alone (apt-get install -y icecast2 to compare).',
      );
  }
  if (targets.length === 0) throw new Error('nothing to measure');
  children.push(
    startSource(
      targets.map((t) => t.sourceUrl),
      args.file,
    ),
  );
  for (const target of targets) {
    if (!(await target.waitForSource(15_000)))
      console.log(`warning: the live source did not reach ${target.name}; measuring what it streams anyway`);
  }
  const figures: Figures[] = [];
  for (const target of targets) {
    console.log(`measuring ${target.name}: ${listeners} listeners...`);
    figures.push(await measure(target));
  }
  report(figures);
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
