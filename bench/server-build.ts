// What the benches measure is the built station (dist/), as an operator runs it: built first when missing
// or older than its sources, so a figure never belongs to yesterday's code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error a plain script without types
import { partsToBuild } from '../scripts/build-state.mjs';

/** dist/server is missing or older than a source file it is built from. */
export function serverBuildIsStale(): boolean {
  if (!existsSync('dist/server/main.js')) return true;
  const built = statSync('dist/server/main.js').mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return newer(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && statSync(path).mtimeMs > built;
    });
  return newer('src/server') || newer('src/common');
}

/** Builds the server when stale (and, with `client`, the client when missing); throws when nothing runs. */
export function ensureBuilt({ client = false } = {}) {
  if (client && !existsSync('dist/client/index.html')) {
    console.log('building the client (npm run build:client)...');
    spawnSync('npm', ['run', '--silent', 'build:client'], { stdio: 'inherit' });
    if (!existsSync('dist/client/index.html')) throw new Error('the client build failed');
  }
  if (serverBuildIsStale()) {
    console.log('building the server (npm run build:server)...');
    const built = spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' }).status === 0;
    if (!existsSync('dist/server/main.js')) throw new Error('the server build failed');
    if (!built) console.log('warning: the build reported errors; measuring what it emitted');
  }
}

/**
 * For a bench that runs `npm start`: builds first what it would (missing, unfinished or older than the code),
 * so the figures are for running the station, not for building it (vite alone takes hundreds of megabytes).
 */
export function buildAsNpmStartWould() {
  for (const { script } of partsToBuild() as { script: string }[]) {
    console.log(`building first (npm run ${script})...`);
    if (spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' }).status !== 0)
      throw new Error(`npm run ${script} failed`);
  }
}
