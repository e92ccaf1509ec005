import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, stopProcess, waitFor } from '../src/server/test/icecast-server';

/** Whether the `caddy` command is installed (CI installs Debian's caddy). */
export async function caddyInstalled(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn('caddy', ['version'], { stdio: 'ignore' });
    probe.once('error', () => resolve(false));
    probe.once('exit', (code) => resolve(code === 0));
  });
}

/**
 * deploy/Caddyfile as it ships, in front of `upstreams` (host:port each) on a free port. Caddy keeps its
 * certificates and autosaved configuration under XDG_DATA_HOME / XDG_CONFIG_HOME: a folder of the test's own.
 * Resolves once a request through it is answered 200.
 */
export async function startCaddy(upstreams: string[]) {
  const port = await freePort();
  const home = mkdtempSync(path.join(tmpdir(), 'station-caddy-'));
  const child = spawn('caddy', ['run', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      SITE_ADDRESS: `:${port}`,
      WEB_UPSTREAMS: upstreams.join(' '),
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitFor(
      'Caddy to answer',
      async () => {
        if (child.exitCode !== null) throw new Error(`caddy exited with ${child.exitCode}:\n${log}`);
        return (await fetch(`${url}/readyz`)).status === 200 ? true : undefined;
      },
      30_000,
    );
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}\n${log}`);
  }
  return { url, output: () => log, stop };
}
