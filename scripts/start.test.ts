import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

// `npm start` stopped by a signal to npm alone (a service manager, `kill`, `timeout`): the signal must reach the
// station or the build under it; npm killed outright must not leave the station running either. Run for real
// (npm, sh, node) on a copy of scripts/start.mjs in a scratch project whose station and build are small
// stand-ins that say when they are stopped.
const repo = path.resolve(import.meta.dirname, '..');
const startScript = (
  JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start;

const STAND_IN = `
console.log('running ' + process.pid);
process.on('SIGTERM', () => { console.log('stopped ' + process.pid); process.exit(0); });
setInterval(() => {}, 1000);
`;

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(built: boolean) {
  root = mkdtempSync(path.join(tmpdir(), 'npm-start-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    'package.json',
    JSON.stringify({
      type: 'module',
      scripts: {
        start: startScript,
        'build:client': 'node build.mjs',
        'build:server': 'node build.mjs',
      },
    }),
  );
  for (const file of ['scripts/start.mjs', 'scripts/build-state.mjs'])
    write(file, readFileSync(path.join(repo, file), 'utf8'));
  write('build.mjs', STAND_IN);
  write('dist/server/main.js', STAND_IN);
  if (built) for (const part of ['client', 'server']) write(`dist/.built-${part}`, 'done\n');
}

async function startThenSignalNpm(signal: NodeJS.Signals = 'SIGTERM') {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own group, so a failed test can still clear everything up
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  try {
    await expect.poll(() => output, { timeout: 20_000 }).toMatch(/running \d+/);
    const pid = Number(/running (\d+)/.exec(output)![1]);
    process.kill(npm.pid!, signal);
    await exited;
    await expect.poll(() => output, { timeout: 10_000 }).toContain(`stopped ${pid}`);
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    return output;
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the whole group has ended
    }
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('a signal to npm alone stops the station: nothing is left running behind it', async () => {
  project(true);
  await startThenSignalNpm();
}, 60_000);

it('a signal to npm alone during the first build stops the build, and the station does not start', async () => {
  project(false);
  const output = await startThenSignalNpm();
  expect(output).toContain('Stopped while building the listener site and admin panel');
  expect(output.match(/running \d+/g)).toHaveLength(1);
}, 60_000);

it('npm killed outright (kill -9) leaves no station behind: it stops once its parent is gone', async () => {
  project(true);
  await startThenSignalNpm('SIGKILL');
}, 60_000);

it("npm start does not check the registry for a newer npm: what that loads would stay in npm's process as long as the station runs", () => {
  // Only this project's .npmrc speaks: empty user and global configs, as on a fresh machine.
  root = mkdtempSync(path.join(tmpdir(), 'npmrc-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_userconfig: path.join(root, 'user'),
    npm_config_globalconfig: path.join(root, 'global'),
  };
  for (const key of Object.keys(env)) if (/^npm_config_update[-_]notifier$/i.test(key)) delete env[key];
  const asked = spawnSync('npm', ['config', 'get', 'update-notifier'], { cwd: repo, env, encoding: 'utf8' });
  expect(asked.stderr).toBe('');
  expect(asked.stdout.trim()).toBe('false');
});
