// Resident memory of the whole `npm start` process tree on the embedded default and on PostgreSQL
// (DATABASE_URL), beside Icecast's in the same run; then the embedded default with the pipeline on and
// listeners on /stream. Every figure printed two ways: PSS (shared pages once) and summed RSS.
// Usage: node --import tsx bench/memory/run.ts [--postgres URL] [--idle-seconds S]
//        [--soak-listeners N] [--soak-seconds S] [--soak-chat C]                     (see README.md)
// Exits 1 when a target is missed; the verdict is printed last.
import { execSync, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createScratchPostgres } from '../../src/server/test/helpers';
import { freePort, startIcecast } from '../../src/server/test/icecast-server';
import type { FromWorker, WorkerInput } from '../listeners/listener-worker';
import { chatRoom } from './chat-room';
import { loadHomeAndAdmin, npmStart } from './station';
import { sampler, treeMemory, type TreeMemory } from './tree';

// Issue 13: the embedded default's PSS at every moment; issue 43: also the summed RSS, idle and with listeners.
const GOAL = { pssMb: 200, rssMb: 260 };
const commit = execSync('git rev-parse --short HEAD').toString().trim();
const dirty = execSync('git status --porcelain -- src').toString().trim()
  ? ' (with uncommitted changes)'
  : '';
const { values } = parseArgs({
  options: {
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'idle-seconds': { type: 'string', default: '20' },
    'soak-listeners': { type: 'string', default: '100' },
    'soak-seconds': { type: 'string', default: '60' },
    'soak-chat': { type: 'string', default: '0' },
  },
});
const idleMs = Number(values['idle-seconds']) * 1000;
const soakListeners = Number(values['soak-listeners']);
const soakSeconds = Number(values['soak-seconds']);
const soakChat = Number(values['soak-chat']);

interface Figures {
  startPeak: TreeMemory;
  idle: TreeMemory;
  restartPeak: TreeMemory;
  idleAfterRestart: TreeMemory;
}

/** First start on a fresh data folder, a visit, idle; then a restart on the same folder, a visit, idle. */
async function measureStation(env: Record<string, string>): Promise<Figures> {
  const port = await freePort();
  const run = async () => {
    let peak: ReturnType<typeof sampler> | undefined;
    // Sampled from the moment npm is spawned: first-start work (initdb, migrations, seeding) is in it.
    const station = await npmStart(env, port, (pid) => (peak = sampler(pid)));
    await loadHomeAndAdmin(station.origin);
    await sleep(idleMs);
    const idle = treeMemory(station.child.pid!);
    return { station, peak: peak!.stop(), idle };
  };
  const first = await run();
  await first.station.stop();
  const second = await run();
  await second.station.stop();
  return { startPeak: first.peak, idle: first.idle, restartPeak: second.peak, idleAfterRestart: second.idle };
}

async function soak(dataDir: string) {
  const port = await freePort();
  const station = await npmStart({ DATA_DIR: dataDir, DATABASE_URL: '' }, port);
  const workers = Math.max(1, Math.min(4, Math.ceil(soakListeners / 1000)));
  const children = Array.from({ length: workers }, (_, index) => {
    const input: WorkerInput = {
      host: '127.0.0.1',
      port,
      paths: ['/stream'],
      count: Math.floor(soakListeners / workers) + (index < soakListeners % workers ? 1 : 0),
      perSecond: Math.ceil(500 / workers),
      burstWindowMs: 500,
      probeEveryMs: 60_000,
    };
    return fork(new URL('../listeners/listener-worker.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_LISTENER_WORKER: JSON.stringify(input) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  });
  const ramped = await Promise.all(
    children.map(
      (child) =>
        new Promise<FromWorker>((resolve) =>
          child.on('message', (m: FromWorker) => m.type === 'ramped' && resolve(m)),
        ),
    ),
  );
  const receiving = ramped.reduce((sum, m) => sum + (m.type === 'ramped' ? m.receiving : 0), 0);
  const chat = await chatRoom(port, soakChat);
  await sleep(30_000); // warm-up
  const start = treeMemory(station.child.pid!);
  const peak = sampler(station.child.pid!, 1000);
  await sleep(soakSeconds * 1000);
  const end = treeMemory(station.child.pid!);
  const max = peak.stop();
  const chatFigures = chat.stop();
  for (const child of children) child.kill();
  await station.stop();
  return { receiving, start, end, max, chat: chatFigures };
}

const cell = (m: TreeMemory) => `${String(m.pssMb).padStart(4)} / ${String(m.rssMb).padStart(4)}`;

const embeddedDir = mkdtempSync(join(tmpdir(), 'station-memory-'));
const scratch = await createScratchPostgres(values.postgres);
try {
  console.log('Measuring the embedded default (npm start, fresh DATA_DIR)...');
  const embedded = await measureStation({ DATA_DIR: embeddedDir, DATABASE_URL: '' });
  console.log('Measuring the same station on PostgreSQL (DATABASE_URL; the server itself not counted)...');
  const pgDir = mkdtempSync(join(tmpdir(), 'station-memory-pg-'));
  const onPostgres = await measureStation({ DATA_DIR: pgDir, DATABASE_URL: scratch.url });
  rmSync(pgDir, { recursive: true, force: true });
  let icecast: TreeMemory | undefined;
  if (spawnSync('sh', ['-c', 'command -v icecast2']).status === 0) {
    const server = await startIcecast();
    await sleep(2000);
    icecast = treeMemory(server.process.pid!);
    await server.stop();
  }

  console.log(
    `\nResident memory of the whole process tree, MB: proportional (shared pages once) / plain RSS sum`,
  );
  console.log('                      first-start peak   idle        restart peak   idle after restart');
  const row = (name: string, f: Figures) =>
    console.log(
      `${name.padEnd(22)}${cell(f.startPeak).padEnd(19)}${cell(f.idle).padEnd(12)}${cell(f.restartPeak).padEnd(15)}${cell(f.idleAfterRestart)}`,
    );
  row('embedded (default)', embedded);
  row('PostgreSQL (app only)', onPostgres);
  if (icecast) console.log(`${'Icecast 2'.padEnd(22)}${''.padEnd(19)}${cell(icecast)}`);
  const judged: [string, TreeMemory, boolean][] = [
    ['embedded, first-start peak', embedded.startPeak, false],
    ['embedded, idle', embedded.idle, true],
    ['embedded, restart peak', embedded.restartPeak, false],
    ['embedded, idle after restart', embedded.idleAfterRestart, true],
  ];
  if (soakSeconds > 0 && soakListeners > 0) {
    console.log(
      `\nThe pipeline with ${soakListeners} listeners on /stream and ${soakChat} chat sockets, embedded default, ${soakSeconds} s (after 30 s warm-up)...`,
    );
    const result = await soak(embeddedDir);
    const growth = ((result.end.pssMb - result.start.pssMb) / result.start.pssMb) * 100;
    console.log(`listeners receiving audio: ${result.receiving}`);
    console.log(
      `start ${cell(result.start)}   end ${cell(result.end)}   peak ${cell(result.max)}   growth ${growth.toFixed(1)} % (goal < 10 %)`,
    );
    if (soakChat > 0)
      console.log(
        `chat sockets: ${result.chat.sockets} open, ${result.chat.sent} messages sent (one a second), ${result.chat.received} received in all`,
      );
    judged.push([`embedded, pipeline and ${result.receiving} listeners (peak)`, result.max, true]);
  }

  // The verdict, last: PSS against issue 13's goal at every moment, summed RSS idle and with listeners.
  console.log(`\nVerdict (commit ${commit}${dirty}; PSS / summed RSS, MB):`);
  let missed = false;
  for (const [name, m, rssJudged] of judged) {
    const pssMet = m.pssMb <= GOAL.pssMb;
    const rssMet = !rssJudged || m.rssMb <= GOAL.rssMb;
    missed ||= !pssMet || !rssMet;
    console.log(
      `  ${pssMet && rssMet ? 'met    ' : 'NOT met'} ${name.padEnd(46)} ${cell(m)}   (≤ ${GOAL.pssMb} PSS${rssJudged ? `, ≤ ${GOAL.rssMb} RSS` : ''})`,
    );
  }
  if (missed) process.exitCode = 1;
} finally {
  rmSync(embeddedDir, { recursive: true, force: true });
  await scratch.drop();
}
