// The station as a new user starts it: `npm start` in the repository, its own data folder and port.
import { spawn, type ChildProcess } from 'node:child_process';
import { waitFor } from '../../src/server/test/icecast-server';
import { ensureBuilt } from '../server-build';
import { signIn } from '../staff';

export const BENCH_ADMIN = { username: 'bench-keeper', password: 'bench keeper password' };

export interface NpmStation {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

export async function npmStart(
  env: Record<string, string>,
  port: number,
  onSpawn?: (pid: number) => void,
): Promise<NpmStation> {
  ensureBuilt({ client: true });
  const child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      // Every bench listener comes from 127.0.0.1.
      MAX_LISTENERS_PER_ADDRESS: '1000000',
      ADMIN_USERNAME: BENCH_ADMIN.username,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, stopped as one
  });
  onSpawn?.(child.pid!);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  try {
    await Promise.race([
      exited.then(() => Promise.reject(new Error(`npm start exited:\n${output}`))),
      waitFor(
        'the station to be on the air',
        () => (output.includes('on the air at') ? true : undefined),
        120_000,
      ),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, origin: `http://127.0.0.1:${port}`, stop };
}

/** What a visit does: the home page and its data, then the admin panel's data after signing in. */
export async function loadHomeAndAdmin(origin: string) {
  for (const path of [
    '/',
    '/api/station',
    '/api/programs/today',
    '/api/featured-content',
    '/api/radio/current',
    '/dashboard-mgmt',
  ]) {
    await (await fetch(`${origin}${path}`)).arrayBuffer();
  }
  const headers = { authorization: `Bearer ${await signIn(origin, BENCH_ADMIN)}` };
  for (const path of [
    '/api/admin/verify',
    '/api/admin/users',
    '/api/email-subscribers',
    '/api/admin/station',
    '/api/admin/listeners',
    '/api/radio/stats',
  ]) {
    await (await fetch(`${origin}${path}`, { headers })).arrayBuffer();
  }
}
