// Which parts of the build `npm start` must (re)build: a part is built when its last step left its mark
// (scripts/built.mjs) after its sources last changed. A build stopped half-way (Ctrl-C) left no mark.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SHARED = ['src/common', 'package.json'];
export const PARTS = [
  { part: 'client', script: 'build:client', what: 'the listener site and admin panel' },
  { part: 'server', script: 'build:server', what: 'the server' },
];
const SOURCES = {
  client: ['src/client', 'vite.config.ts', ...SHARED],
  server: ['src/server', 'tsconfig.server.json', ...SHARED],
};

/** The newest modification time of the files under these paths. */
function newest(paths) {
  let latest = 0;
  for (const entry of paths) {
    if (!existsSync(entry)) continue;
    const stat = statSync(entry);
    latest = stat.isDirectory()
      ? Math.max(latest, newest(readdirSync(entry).map((name) => path.join(entry, name))))
      : Math.max(latest, stat.mtimeMs);
  }
  return latest;
}

/** The parts of the build in `root` that are missing, unfinished or older than their sources. */
export function partsToBuild(root = '.') {
  const at = (file) => path.join(root, file);
  return PARTS.filter(({ part }) => {
    const mark = at(`dist/.built-${part}`);
    return !existsSync(mark) || statSync(mark).mtimeMs < newest(SOURCES[part].map(at));
  });
}
