import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../src/server/test/icecast-server';
import { launchBrowser } from './browser';

export const E2E_ADMIN = { username: 'e2e-superuser', password: 'e2e correct horse' };

/** The stream second a station is sending its listeners now. */
export const streamClock = async (url: string) =>
  ((await (await fetch(`${url}/api/radio/current`)).json()) as { stream_clock: number }).stream_clock;

export interface RunningStation {
  url: string;
  port: number;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Ends the process at once with SIGKILL, as a crash or a lost machine would (no goodbye to its sockets). */
  kill(): Promise<void>;
}

/**
 * Starts the built server (dist/) as a new user would, on a free port with its own DATA_DIR.
 * Resolves once it says it is on the air.
 */
export async function startStation(env: Record<string, string> = {}): Promise<RunningStation> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'station-e2e-'));
  let log = '';
  let child: ChildProcess;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      child = spawn(process.execPath, ['dist/server/main.js'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          ADMIN_USERNAME: E2E_ADMIN.username,
          ADMIN_PASSWORD: E2E_ADMIN.password,
          DATABASE_URL: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('on the air at')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`station exited with ${code}:\n${log}`)));
    });

  const stopChild = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

  await launch();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    output: () => log,
    async stop() {
      await stopChild();
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.removeAllListeners('exit');
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      await stopChild();
      log = '';
      await launch();
    },
  };
}

/** A browser and a station of the calling file's own (for specs that restart or reconfigure it). */
export function ownBrowserAndStation(env: Record<string, string> = {}) {
  const own = {} as { browser: Browser; station: RunningStation };
  beforeAll(async () => {
    [own.browser, own.station] = await Promise.all([launchBrowser(), startStation(env)]);
  });
  afterAll(async () => {
    await own.browser?.close();
    await own.station?.stop();
  });
  return own;
}
