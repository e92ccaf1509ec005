// npm start: builds whatever is missing (client, server), then starts the station.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (script) => {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
if (!existsSync('dist/client/index.html')) run('build:client');
if (!existsSync('dist/server/main.js')) run('build:server');
await import('../dist/server/main.js');
