import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Retries `check` until it returns a value (not undefined) or the time runs out. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ends a child process and waits for it: SIGTERM, then SIGKILL if it lingers. */
export function stopProcess(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface IcecastOptions {
  /** Most listeners Icecast accepts (its `<clients>` limit counts sources and listeners). */
  clients?: number;
  burstSize?: number;
  /** Told of the icecast2 process as soon as it exists, so a caller can end it on Ctrl-C. */
  onSpawn?: (child: ChildProcess) => void;
  /** The port to listen on (default: a free one), for a caller that must name it before the start. */
  port?: number;
  /**
   * A whole configuration of the caller's (e.g. deploy/icecast/relay.xml filled in) instead of the
   * throwaway one; `changeOwner` is the <changeowner> element Icecast needs when run as root, or ''.
   */
  configXml?: (vars: { port: number; password: string; logDir: string; changeOwner: string }) => string;
}

export interface IcecastServer {
  port: number;
  origin: string;
  password: string;
  process: ChildProcess;
  /** Icecast's /status-json.xsl, parsed. */
  status(): Promise<{ icestats: { source?: unknown } }>;
  /** Waits until a source is connected on `mount`. */
  waitForMount(mount: string): Promise<void>;
  /** The Icecast admin metadata call that encoders make: sets the mount's title. */
  setSong(mount: string, song: string): Promise<void>;
  stop(): Promise<void>;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Starts a real Icecast 2 server on a free loopback port with a throwaway configuration. */
export async function startIcecast(options: IcecastOptions = {}): Promise<IcecastServer> {
  const dir = await mkdtemp(join(tmpdir(), 'icecast-'));
  const port = options.port ?? (await freePort());
  const password = `pw${Math.random().toString(36).slice(2, 12)}`;
  // Icecast refuses to run as root; as root it must drop to an unprivileged user after binding.
  const owner =
    process.getuid?.() === 0 ? '<changeowner><user>nobody</user><group>nogroup</group></changeowner>' : '';
  const changeOwner = owner && `<security><chroot>0</chroot>${owner}</security>`;
  const config =
    options.configXml?.({ port, password, logDir: dir, changeOwner: owner }) ??
    `<icecast>
  <location>loopback</location><admin>station@localhost</admin><hostname>127.0.0.1</hostname>
  <limits><clients>${options.clients ?? 100}</clients><sources>4</sources><queue-size>1048576</queue-size>
    <burst-size>${options.burstSize ?? 65536}</burst-size><source-timeout>10</source-timeout><header-timeout>15</header-timeout></limits>
  <authentication><source-password>${xml(password)}</source-password><admin-user>admin</admin-user>
    <admin-password>${xml(password)}</admin-password></authentication>
  <listen-socket><port>${port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>${xml(dir)}</logdir><webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>-</accesslog><errorlog>-</errorlog><loglevel>1</loglevel></logging>
  ${changeOwner}
</icecast>`;
  const configFile = join(dir, 'icecast.xml');
  await writeFile(configFile, config);
  const child = spawn('icecast2', ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  options.onSpawn?.(child);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4096);
  });
  const origin = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`source:${password}`).toString('base64')}`;
  const server: IcecastServer = {
    port,
    origin,
    password,
    process: child,
    async status() {
      const response = await fetch(`${origin}/status-json.xsl`);
      if (!response.ok) throw new Error(`Icecast status answered ${response.status}`);
      return (await response.json()) as { icestats: { source?: unknown } };
    },
    async waitForMount(mount) {
      await waitFor(
        `Icecast mount ${mount}`,
        async () => {
          const { source } = (await server.status()).icestats;
          const sources = (Array.isArray(source) ? source : source ? [source] : []) as {
            listenurl?: string;
          }[];
          return sources.some((s) => s.listenurl && new URL(s.listenurl).pathname === mount)
            ? true
            : undefined;
        },
        // An encoder starting on a busy 2-core machine can take a while to connect.
        30_000,
      );
    },
    async setSong(mount, song) {
      const query = new URLSearchParams({ mount, mode: 'updinfo', song });
      const response = await fetch(`${origin}/admin/metadata?${query}`, { headers: { authorization: auth } });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`Icecast metadata update answered ${response.status}`);
    },
    async stop() {
      await stopProcess(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`icecast2 exited (${code}): ${output.trim()}`))),
  );
  exited.catch(() => {});
  try {
    await Promise.race([exited, waitFor('Icecast to listen', () => server.status().then(() => true))]);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

export interface FfmpegSourceOptions {
  /** Audio to send: a lavfi source (default a 440 Hz sine) or a file played in a loop. */
  file?: string;
  bitrateKbps?: number;
  name?: string;
}

/**
 * ffmpeg as a live encoder: real-time MP3 pushed to an Icecast-compatible mount with the Icecast source
 * protocol (HTTP PUT), e.g. `icecast://source:PW@127.0.0.1:PORT/live`.
 */
export function startFfmpegSource(icecastUrl: string, options: FfmpegSourceOptions = {}): ChildProcess {
  const input = options.file
    ? ['-stream_loop', '-1', '-i', options.file]
    : ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'];
  return spawn(
    'ffmpeg',
    [
      ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', ...input],
      ...['-vn', '-c:a', 'libmp3lame', '-b:a', `${options.bitrateKbps ?? 128}k`, '-ar', '44100', '-ac', '2'],
      ...[
        '-f',
        'mp3',
        '-content_type',
        'audio/mpeg',
        '-ice_name',
        options.name ?? 'Loopback source',
        icecastUrl,
      ],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}
