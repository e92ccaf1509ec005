import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './icecast-server.js';

export const PROCESS_ADMIN = { username: 'night-editor', password: 'still small voice' };

export interface StationProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * The station from source as `npm start` runs it (main.ts), on the embedded database in `dataDir`.
 * Resolves once it is on the air, or with its output once it exits first (a refused start).
 */
export async function startStationProcess(
  dataDir: string,
  options: {
    env?: Record<string, string>;
    /** Leads a process group of its own, as a terminal or a service manager starts it (to signal the group). */
    ownGroup?: boolean;
  } = {},
): Promise<{ running: StationProcess } | { refused: string; code: number | null }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      ADMIN_USERNAME: PROCESS_ADMIN.username,
      ADMIN_PASSWORD: PROCESS_ADMIN.password,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownGroup,
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('on the air at')) {
        resolve({ running: { url: `http://127.0.0.1:${port}`, child, output: () => out, exited } });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => resolve({ refused: out.trim(), code }));
  });
}

export async function running(
  dataDir: string,
  options?: Parameters<typeof startStationProcess>[1],
): Promise<StationProcess> {
  const started = await startStationProcess(dataDir, options);
  if ('refused' in started) throw new Error(`station did not start: ${started.refused}`);
  return started.running;
}

export async function signInTo(station: StationProcess): Promise<Record<string, string>> {
  const response = await fetch(`${station.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PROCESS_ADMIN),
  });
  const { token } = (await response.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
