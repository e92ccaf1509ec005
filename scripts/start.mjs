// npm start: builds whatever is missing, unfinished or older than the code, saying so, then starts the station.
import { spawnSync } from 'node:child_process';
import { partsToBuild } from './build-state.mjs';

for (const { script, what } of partsToBuild()) {
  const started = Date.now();
  console.log(`Building ${what} (a first start takes about a minute)...`);
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Building ${what} failed (see above); npm start tries again next time.`);
    process.exit(result.status ?? 1);
  }
  console.log(`Built ${what} in ${Math.round((Date.now() - started) / 1000)} s.`);
}
await import('../dist/server/main.js');
