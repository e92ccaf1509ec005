// What the benches measure is the built station (dist/), as an operator runs it: built first by `npm start`'s
// own rule (a part missing, unfinished or older than its sources), so a figure never belongs to yesterday's code
// and never includes the build (vite alone takes hundreds of megabytes).
import { spawnSync } from 'node:child_process';
// @ts-expect-error a plain script without types
import { partsToBuild } from '../scripts/build-state.mjs';

/** Builds the server when `npm start` would, and the client too with `client`; throws when a build fails. */
export function ensureBuilt({ client = false } = {}) {
  for (const { part, script } of partsToBuild() as { part: string; script: string }[]) {
    if (part === 'client' && !client) continue;
    console.log(`building first (npm run ${script})...`);
    if (spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' }).status !== 0)
      throw new Error(`npm run ${script} failed`);
  }
}
