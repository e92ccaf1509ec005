// Issue 14's target, "grow past one machine": listeners split across the broadcaster and an Icecast relay,
// and chat clients across two web instances; every chat message to every client, with the p99 latency to
// the last client printed beside the one-instance station's (bench/chat's) measured in the same run; relay
// listeners none below 95 % of the stream's bitrate; the station's listener figure beside those connected.
// Usage: node --import tsx bench/scale/run.ts [--clients N] [--listeners L] [--seconds S] [--rate R]
//        [--warmup S] [--turn S] [--workers W] [--ramp PER_SECOND]                    (see README.md)
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { stopProcess } from '../../src/server/test/icecast-server';
import { sendersFor } from '../chat/senders';
import { startStation, type Started } from '../chat/servers';
import { ensureBuilt } from '../server-build';
import { measureChat, type ChatTarget } from './chat';
import { closeGroups, endWindow, startGroups, startWindow, streamBitrateKbps, type Group } from './listeners';
import { report, type ListenerCount } from './report';
import { startScaledSet, stoppingTheSet } from './set';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    listeners: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '10' },
    turn: { type: 'string', default: '10' },
    workers: { type: 'string' },
    ramp: { type: 'string', default: '500' },
  },
});
const clients = Math.min(20_000, Math.max(2, Math.round(Number(args.clients)) || 10_000));
const listeners = Math.min(5_000, Math.max(2, Math.round(Number(args.listeners)) || 200));
const seconds = Math.min(600, Math.max(1, Number(args.seconds) || 60));
const rate = Math.min(100, Math.max(0.1, Number(args.rate) || 5));
const warmupSeconds = Math.min(120, Math.max(0, Number(args.warmup) || 0));
const turnSeconds = Math.max(1, Number(args.turn) || 10);
const workers = Math.min(
  8,
  Math.max(1, Math.round(Number(args.workers)) || Math.max(2, Math.ceil(clients / 5_000))),
);
const rampPerSecond = Math.max(10, Number(args.ramp) || 500);
const senderCount = sendersFor(rate);
const relayListeners = Math.floor(listeners / 2);
const runId = randomBytes(6).toString('hex');

// --- limits: every client is a socket in a client process and one in a server --------------------------
const [softLimit, hardLimit] = execFileSync('sh', ['-c', 'ulimit -n; ulimit -Hn'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
const needed = Math.max(clients + 2 * senderCount + listeners + 512, Math.ceil(clients / workers) * 2 + 256);
if (softLimit! < needed) {
  console.log(`Open-file limit ${softLimit} is too low for ${clients} clients (need about ${needed}).`);
  console.log(
    `Raise it first: ulimit -n ${Math.min(hardLimit!, Math.max(needed, 8192))}  (hard limit ${hardLimit}), ` +
      `or give more client processes with --workers; then run again.`,
  );
  process.exit(2);
}
if (spawnSync('icecast2', ['-v'], { stdio: 'ignore' }).status !== 0) {
  console.log('icecast2 is needed for the relay (apt-get install -y icecast2).');
  process.exit(2);
}

// --- cleanup: children end with us, on success, error, Ctrl-C or the overall time limit ---------------
const started: Started = { children: [], stops: [] };
const onSpawn = (child: ChildProcess) => started.children.push(child);
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    stoppingTheSet();
    await Promise.all(started.children.map((c) => stopProcess(c, 10_000)));
    for (const stop of started.stops) await stop().catch(() => {});
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping`);
    void cleanup().then(() => process.exit(130));
  });
}
process.once('uncaughtException', (error) => {
  console.log(`bench failed: ${error.stack ?? error.message}`);
  void cleanup().then(() => process.exit(1));
});
process.once('exit', () => started.children.forEach((c) => c.kill('SIGKILL')));
const timeLimitMs = ((2 * clients) / rampPerSecond + 2 * (warmupSeconds + seconds) * 1.1 + 600) * 1000;
setTimeout(() => {
  console.log(`time limit of ${Math.round(timeLimitMs / 1000)} s reached: stopping`);
  void cleanup().then(() => process.exit(1));
}, timeLimitMs).unref();

// --- run ----------------------------------------------------------------------------------------------
async function listenerCount(origin: string): Promise<ListenerCount> {
  const stats = (await (await fetch(`${origin}/api/radio/stats`)).json()) as { listeners: number };
  const current = (await (await fetch(`${origin}/api/radio/current`)).json()) as { listeners: number };
  return { stats: stats.listeners, current: current.listeners };
}

async function relayCount(origin: string): Promise<number> {
  const status = (await (await fetch(`${origin}/status-json.xsl`)).json()) as {
    icestats: { source?: { listeners?: number } | { listeners?: number }[] };
  };
  const sources = [status.icestats.source ?? []].flat();
  return sources.reduce((n, s) => n + (s.listeners ?? 0), 0);
}

/** The broadcaster's stream clock (seconds of audio sent), to tell a slow source from a slow relay. */
async function streamClock(origin: string): Promise<number> {
  return ((await (await fetch(`${origin}/api/radio/current`)).json()) as { stream_clock: number })
    .stream_clock;
}

let groups: Group[] = [];
try {
  ensureBuilt({ client: true });
  console.log('starting the one-instance station (npm start)...');
  const station = await startStation(started);
  console.log('starting the scaled set: broadcaster, relay, two web instances...');
  const set = await startScaledSet({ fileLimit: hardLimit!, relayListeners, onSpawn, stops: started.stops });
  console.log(
    `scaled set up: ${new URL(set.databaseUrl).pathname.slice(1)} on PostgreSQL, Redis ${set.redisUrl} with ` +
      `prefix ${set.redisPrefix}, relay pulling the broadcaster`,
  );
  const bitrateKbps = await streamBitrateKbps(`${set.broadcaster.origin}/stream`);

  console.log(
    `${listeners - relayListeners} listeners on the broadcaster, ${relayListeners} on the relay...`,
  );
  groups = await startGroups(
    [
      { name: 'broadcaster', url: `${set.broadcaster.origin}/stream`, count: listeners - relayListeners },
      { name: 'relay', url: set.relay.streamUrl, count: relayListeners },
    ],
    onSpawn,
  );
  await sleep(3_000); // bursts delivered, every listener at real-time pace
  startWindow(groups);
  const windowStarted = performance.now();
  const clockStarted = await streamClock(set.broadcaster.origin);

  const targets: ChatTarget[] = [
    { label: 'one instance', origin: station.origin, urls: [station.url], pids: [station.pid] },
    {
      label: 'two web instances',
      origin: set.webs[0]!.origin,
      urls: set.webs.map((w) => w.url),
      pids: set.webs.map((w) => w.pid),
    },
  ];
  console.log(
    `${clients} chat clients to each target (${rampPerSecond} a second over ${workers} processes), ` +
      `then ${warmupSeconds} s warm-up each and ${seconds} s each measured in turns of ${turnSeconds} s...`,
  );
  const chat = await measureChat(targets, {
    clients,
    workers,
    rampPerSecond,
    rate,
    senderCount,
    warmupMessages: Math.round(warmupSeconds * rate),
    measuredMessages: Math.max(1, Math.round(seconds * rate)),
    turnMessages: Math.max(1, Math.round(turnSeconds * rate)),
    runId,
    onSpawn,
    onConnected: (connected) => console.log(`connected: ${connected.join(' and ')}; measuring...`),
  });

  // Listener figures, read while every listener is still there (relays are read every 5 s).
  const figures = await Promise.all(set.webs.map((w) => listenerCount(w.origin)));
  const relayOwn = await relayCount(set.relay.origin);
  const clockEnded = await streamClock(set.broadcaster.origin);
  const listened = await endWindow(groups, bitrateKbps);
  const windowSeconds = (performance.now() - windowStarted) / 1000;
  closeGroups(groups);

  const load = loadavg().map((l) => l.toFixed(1));
  const ok = report({
    clients,
    chat,
    listened,
    bitrateKbps,
    windowSeconds,
    clockSeconds: clockEnded - clockStarted,
    webFigures: figures.map((f, i) => ({ name: set.webs[i]!.name, ...f })),
    relayOwn,
    senderCount,
    rate,
    warmupSeconds,
    turnSeconds,
  });
  console.log(`Load average at the end (1, 5, 15 min, ${cpus().length} cores): ${load.join(', ')}`);
  if (!ok) process.exitCode = 1;
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  closeGroups(groups);
  await cleanup();
}
