import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ffmpegPath } from '../radio/ffmpeg.js';

/**
 * One stream of a station elsewhere: a file sent over and over in real time, as an Icecast mount sends it, or
 * a fixed answer (`body`, e.g. a playlist).
 */
export type ElsewhereMount = (
  | {
      file: string;
      /** ffmpeg's name of the container to send (`mp3`, `adts` for AAC, `ogg`...). */
      format: string;
    }
  | { body: string }
) & {
  contentType: string;
  /** Its now playing ('Artist - Title'), in the station's Icecast status. */
  title: string;
};

export interface StationElsewhere {
  origin: string;
  /** The stream requests it has had, by path, in order. */
  requests: string[];
  /** How often its status was asked for. */
  readonly statusAsked: number;
  /** Listeners connected now. */
  readonly listening: number;
  mount(path: string, mount: ElsewhereMount): void;
  setTitle(path: string, title: string): void;
  /** Goes off the air: every listener is cut off and new ones are answered 503, until `up`. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

/**
 * A station hosted elsewhere for tests: real-time streams (ffmpeg copying a file at its own pace, no
 * encoding) and Icecast's /status-json.xsl naming what each mount plays.
 */
export async function startStationElsewhere(host = '127.0.0.1'): Promise<StationElsewhere> {
  const mounts = new Map<string, ElsewhereMount>();
  const senders = new Set<{ proc: ChildProcess; res: ServerResponse }>();
  const requests: string[] = [];
  let statusAsked = 0;
  let onAir = true;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/status-json.xsl') {
      statusAsked++;
      const source = [...mounts].map(([mount, { title }]) => ({
        listenurl: `${origin}${mount}`,
        title,
        listeners: 0,
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ icestats: { source } }));
      return;
    }
    const mount = mounts.get(path);
    if (!mount) return res.writeHead(404).end();
    requests.push(path);
    if (!onAir) return res.writeHead(503, { 'content-type': 'text/plain' }).end('off the air');
    if ('body' in mount) return res.writeHead(200, { 'content-type': mount.contentType }).end(mount.body);
    const proc = spawn(
      ffmpegPath(),
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', '-re', '-stream_loop', '-1', '-i', mount.file],
        ...['-c', 'copy', '-f', mount.format, 'pipe:1'],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const sender = { proc, res };
    senders.add(sender);
    res.writeHead(200, { 'content-type': mount.contentType, 'cache-control': 'no-cache' });
    proc.stdout!.pipe(res);
    const end = () => {
      senders.delete(sender);
      proc.kill('SIGKILL');
    };
    res.on('close', end);
    proc.on('exit', () => res.destroy());
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const cutOff = () => {
    for (const { proc, res } of senders) {
      proc.kill('SIGKILL');
      res.destroy();
    }
    senders.clear();
  };
  return {
    origin,
    requests,
    get listening() {
      return senders.size;
    },
    get statusAsked() {
      return statusAsked;
    },
    mount: (path, mount) => void mounts.set(path, mount),
    setTitle(path, title) {
      mounts.get(path)!.title = title;
    },
    down() {
      onAir = false;
      cutOff();
    },
    up() {
      onAir = true;
    },
    async close() {
      cutOff();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
