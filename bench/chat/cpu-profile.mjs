// Preloaded into the station by `run.ts --cpu-prof DIR` (NODE_OPTIONS=--import, where --cpu-prof itself is
// not allowed): a V8 CPU profile of the station process, written to DIR when it exits.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
// npm is a node process too: only the station (node scripts/start.mjs) is profiled.
if (dir && process.argv.some((arg) => arg.endsWith('scripts/start.mjs'))) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // The in-thread session answers synchronously, so this runs before the process is gone.
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `station-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
