// The servers measured: our station (the built server) and Icecast, each on a free loopback port,
// and the one ffmpeg encoder that feeds them the same live audio: our station one 128 kbps source (its
// pipeline encodes every bitrate), Icecast one source per mount, each at that mount's bitrate.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_PATH, streamPathFor } from '../../src/common/radio';
import { freePort, startIcecast, stopProcess, waitFor } from '../../src/server/test/icecast-server';

/** One live source an encoder sends: MP3 at `kbps` to an icecast:// URL (ffmpeg's Icecast source protocol). */
export interface Source {
  kbps: number;
  url: string;
}

export interface Target {
  name: string;
  pid: number;
  port: number;
  /** The mount a listener of this bitrate asks for. */
  path(kbps: number): string;
  /** What the encoder sends this server. */
  sources: Source[];
  /** Resolves once every live source is on the air, false if one never came within the time. */
  waitForSource(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** Our station's superuser, for a bench that uses the admin API. */
export type OurTarget = Target & { admin: { username: string; password: string } };

/**
 * How package.json's start script runs Node (`VAR=value ... exec node [--flag ...] scripts/start.mjs`): its
 * environment (glibc's allocator settings) and its flags.
 */
function startCommand(): { env: Record<string, string>; flags: string[] } {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const parsed = /^((?:\w+=\S* )*)exec node ((?:--[\w=-]+ )*)scripts\/start\.mjs$/.exec(scripts.start.trim());
  if (!parsed)
    throw new Error(
      'package.json start script is not "[VAR=value ...] exec node [--flag ...] scripts/start.mjs"',
    );
  const words = (text: string) => text.trim().split(' ').filter(Boolean);
  const env = Object.fromEntries(words(parsed[1]!).map((word) => word.split('=') as [string, string]));
  return { env, flags: words(parsed[2]!) };
}

/**
 * Our station from dist/, as an operator runs it, with its own data folder and a raised file limit;
 * `prepare` fills the data folder before the start (e.g. a library in `media/`).
 */
export async function startOurs(
  fileLimit: number,
  onSpawn: (child: ChildProcess) => void,
  prepare?: (dataDir: string) => void,
): Promise<OurTarget> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-'));
  prepare?.(dataDir);
  const password = randomBytes(12).toString('hex');
  const admin = { username: 'bench-admin', password: randomBytes(12).toString('hex') };
  // `exec` keeps the pid: CPU and memory are read from /proc of the server itself. Node runs with the flags and
  // the allocator settings `npm start` gives it, so the cost measured is the cost operators get.
  const start = startCommand();
  const child = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${fileLimit} 2>/dev/null; exec "$0" ${start.flags.join(' ')} dist/server/main.js`,
      process.execPath,
    ],
    {
      env: {
        ...process.env,
        ...start.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        STREAM_SOURCE: '',
        SEED_DEMO: 'false',
        // Every bench listener comes from 127.0.0.1.
        MAX_LISTENERS_PER_ADDRESS: '1000000',
        LOG_LEVEL: 'warn',
        SOURCE_PASSWORD: password,
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  onSpawn(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8192);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const stop = async () => {
    await stopProcess(child, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`our server exited (${code}):\n${output.trim()}`))),
  );
  exited.catch(() => {});
  try {
    await Promise.race([
      exited,
      waitFor('our server to listen', () => (output.includes('on the air at') ? true : undefined), 60_000),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    name: 'ours',
    admin,
    pid: child.pid!,
    port,
    // /stream/128 is /stream, the main mount.
    path: streamPathFor,
    sources: [{ kbps: 128, url: `icecast://source:${password}@127.0.0.1:${port}${STREAM_PATH}` }],
    waitForSource: (timeoutMs) =>
      waitFor(
        'the live source on our server',
        async () => {
          const response = await fetch(`${origin}/api/radio/current`);
          const body = (await response.json()) as { is_live?: boolean };
          return body.is_live === true ? true : undefined;
        },
        timeoutMs,
      ).catch(() => false),
    stop,
  };
}

/** Icecast with one mount per bitrate (/stream/128, /stream/96...), each fed its own source at that bitrate. */
export async function startIcecastTarget(
  listeners: number,
  onSpawn: (child: ChildProcess) => void,
  bitrates: readonly number[] = [128],
): Promise<Target> {
  const icecast = await startIcecast({ clients: listeners + 64, onSpawn });
  const mounts = bitrates.map(streamPathFor);
  return {
    name: 'icecast',
    pid: icecast.process.pid!,
    port: icecast.port,
    path: streamPathFor,
    sources: bitrates.map((kbps) => ({
      kbps,
      url: `icecast://source:${icecast.password}@127.0.0.1:${icecast.port}${streamPathFor(kbps)}`,
    })),
    waitForSource: (timeoutMs) =>
      Promise.race([
        Promise.all(mounts.map((mount) => icecast.waitForMount(mount))).then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
      ]).catch(() => false),
    stop: () => icecast.stop(),
  };
}

/**
 * One real-time MP3 encoder for every source: the input is encoded once per bitrate, and sources of the
 * same bitrate get the same bytes (ffmpeg's tee muxer); a target that refuses or drops a source does not
 * stop the others.
 */
export function startSource(sources: Source[], file?: string): ChildProcess {
  if (file && !existsSync(file)) throw new Error(`no such audio file: ${file}`);
  const input = file
    ? ['-stream_loop', '-1', '-i', file]
    : ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'];
  const bitrates = [...new Set(sources.map((s) => s.kbps))];
  const outputs = bitrates.flatMap((kbps) => [
    ...['-map', '0:a', '-c:a', 'libmp3lame', '-b:a', `${kbps}k`, '-ar', '44100', '-ac', '2'],
    ...['-flush_packets', '1', '-f', 'tee'],
    sources
      .filter((s) => s.kbps === kbps)
      .map((s) => `[f=mp3:onfail=ignore]${s.url}`)
      .join('|'),
  ]);
  return spawn('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', ...input, ...outputs], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
