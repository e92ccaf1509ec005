// Issue 43, point 2: the Schedule tab's "Next 24 hours" computed from the database of a large station
// (bench/plan/data.ts: 10,000 items, 300 playlists, 98 weekly programmes, 1,000 one-offs), 50 times, the
// slowest run judged; and the station's memory with that data loaded.
//
//  1. In process, on PGlite and on PostgreSQL (--postgres): the whole app (buildApp, its engine on the air)
//     over that database, and the route staff call (GET /api/admin/schedule/upcoming?hours=24, app.inject).
//  2. The built station (`npm start`) on a DATA_DIR holding that data in its own PostgreSQL: the same route
//     over HTTP, then the whole process tree's memory (PSS, and summed RSS) idle with that data loaded.
//
// Runs are 2.1 s apart, longer than any cache the plan keeps by time (the playlists' snapshot, 2 s), so each
// run reads what a staff member opening the tab would. Target: every run under 50 ms; memory ≤ 200 MB PSS.
// node --import tsx bench/plan/run.ts [--runs 50] [--postgres URL] [--skip-station] [--cpu-prof-dir DIR]
// Exits 1 when a target is missed.
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { UPCOMING_PATH, type Upcoming } from '../../src/common/programs';
import { buildApp } from '../../src/server/app';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { createLocalBus } from '../../src/server/plugins/event-bus';
import { createScratchPostgres, testConfig } from '../../src/server/test/helpers';
import { freePort } from '../../src/server/test/icecast-server';
import { addStaff } from '../../src/server/test/staff';
import { BENCH_ADMIN, npmStart } from '../memory/station';
import { sampler, treeMemory } from '../memory/tree';
import { signIn } from '../staff';
import { fillStation, SIZES } from './data';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'skip-station': { type: 'boolean', default: false },
    'cpu-prof-dir': { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const APART_MS = 2100;
const TARGET = { maxMs: 50, pssMb: 200 };
const commit = execSync('git rev-parse --short HEAD').toString().trim();
const dirty = execSync('git status --porcelain -- src').toString().trim()
  ? ' (with uncommitted changes)'
  : '';
const verdicts: string[] = [];

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
};

/** Times `plan()` RUNS times, APART_MS apart; every answer must be the same full day. */
async function timeRuns(name: string, plan: () => Promise<Upcoming>) {
  const first = await plan(); // the first answer after a start compiles what it runs: not one a visit meets
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await sleep(APART_MS);
    const started = performance.now();
    const answer = await plan();
    times.push(performance.now() - started);
    if (answer.entries.length < 100) throw new Error(`${name}: only ${answer.entries.length} entries`);
  }
  const { median, p95, max } = stats(times);
  const met = max < TARGET.maxMs;
  const line = `${name}: ${first.entries.length} entries; over ${RUNS} runs median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms`;
  console.log(line);
  verdicts.push(
    `${met ? 'met    ' : 'NOT met'} next 24 hours, ${name}: max ${max.toFixed(1)} ms (target < ${TARGET.maxMs} ms)`,
  );
}

/** The CPU profile of what `during` runs, written to DIR/<name>.cpuprofile (for --cpu-prof-dir). */
async function profiled<T>(name: string, during: () => Promise<T>): Promise<T> {
  const dir = values['cpu-prof-dir'];
  if (!dir) return during();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await during();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** The app in this process over `database`, its data folder `dataDir`; the route timed through app.inject. */
async function inProcess(name: string, database: DatabaseHandle) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-plan-'));
  const bus = createLocalBus();
  try {
    await fillStation(database.db, dataDir);
    const app = await buildApp({
      config: testConfig({ DATA_DIR: dataDir }),
      db: database.db,
      bus,
    });
    await app.ready();
    try {
      const { headers } = await addStaff(database.db, 'bench-planner', 'admin');
      await profiled(name, () =>
        timeRuns(`${name}, in process (app.inject)`, async () => {
          const res = await app.inject({ url: `${UPCOMING_PATH}?hours=24`, headers });
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
          return res.json<Upcoming>();
        }),
      );
    } finally {
      await app.close();
    }
  } finally {
    await bus.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The built station on a DATA_DIR holding the data (its own PostgreSQL): the route over HTTP, then memory. */
async function builtStation() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-plan-station-'));
  try {
    const database = await openDatabase({ dataDir });
    await fillStation(database.db, dataDir);
    await database.close();
    const station = await npmStart(
      { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'false' },
      await freePort(),
    );
    try {
      const headers = { authorization: `Bearer ${await signIn(station.origin, BENCH_ADMIN)}` };
      const during = sampler(station.child.pid!, 250);
      await timeRuns('built station, embedded PostgreSQL (HTTP)', async () => {
        const res = await fetch(`${station.origin}${UPCOMING_PATH}?hours=24`, { headers });
        if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
        return (await res.json()) as Upcoming;
      });
      const peak = during.stop();
      await sleep(10_000);
      const idle = treeMemory(station.child.pid!);
      console.log(
        `built station with that data (${idle.processes} processes), PSS / summed RSS: peak while planning ${peak.pssMb} / ${peak.rssMb} MB, idle after ${idle.pssMb} / ${idle.rssMb} MB`,
      );
      const worst = Math.max(peak.pssMb, idle.pssMb);
      verdicts.push(
        `${worst <= TARGET.pssMb ? 'met    ' : 'NOT met'} station memory with that data: ${worst} MB PSS at most (target ≤ ${TARGET.pssMb} MB; summed RSS at most ${Math.max(peak.rssMb, idle.rssMb)} MB)`,
      );
    } finally {
      await station.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `Next 24 hours over ${SIZES.items.toLocaleString('en')} items, ${SIZES.playlists} playlists, ${SIZES.weekly} weekly programmes, ${SIZES.oneOffs.toLocaleString('en')} one-offs; commit ${commit}${dirty}`,
);
await inProcess('PGlite', await openDatabase({ dataDir: 'memory://' }));
const scratch = await createScratchPostgres(values.postgres, 'bench_plan');
try {
  const handle = await openDatabase({ dataDir: 'memory://', databaseUrl: scratch.url });
  await inProcess('PostgreSQL', { ...handle, close: handle.close });
} finally {
  await scratch.drop();
}
if (!values['skip-station']) await builtStation();
console.log(`\nVerdict (commit ${commit}${dirty}):`);
for (const line of verdicts) console.log(`  ${line}`);
if (verdicts.some((line) => line.startsWith('NOT'))) process.exitCode = 1;
