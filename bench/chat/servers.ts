// The two servers measured: the station as a new user runs it (npm start, with moderation switched on by
// staff), and the bare `ws` broadcast server beside it.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BLOCKED_WORDS_MESSAGE } from '../../src/common/chat-moderation';
import { freePort, stopProcess } from '../../src/server/test/icecast-server';
import { BENCH_ADMIN, npmStart } from '../memory/station';
import { descendants } from '../memory/tree';
import { signIn, staffCall } from '../staff';
import type { FromBare } from './bare-server';
import { openSpeaker, type SenderPool, type Speaker } from './senders';

export type Name = 'bare ws' | 'station';

export interface Server {
  name: Name;
  url: string;
  origin: string;
  /** The process that serves /ws (CPU and memory are read from it). */
  pid: number;
  /** Other processes working for it (the station's own PostgreSQL). */
  helpers(): number[];
  stop(): Promise<void>;
}

/** Where the bench keeps what it started, so a failure or Ctrl-C stops it all. */
export interface Started {
  children: ChildProcess[];
  stops: (() => Promise<void>)[];
}

export async function startBare(started: Started): Promise<Server> {
  const child = fork(new URL('./bare-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  started.children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: FromBare) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return {
    name: 'bare ws',
    url: `ws://127.0.0.1:${port}/ws`,
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    helpers: () => [],
    stop: async () => {
      await stopProcess(child);
      started.children.splice(started.children.indexOf(child), 1);
    },
  };
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

/**
 * The station as a new user runs it: `npm start`, the embedded database on a fresh data folder, defaults.
 * With `profileDir`, the station writes a V8 CPU profile there when it stops.
 */
export async function startStation(started: Started, profileDir?: string): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'station-chat-bench-'));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  started.stops.push(async () => remove());
  const profile: Record<string, string> = {};
  if (profileDir) {
    // NODE_OPTIONS may not carry --cpu-prof: a preloaded module starts the profiler instead.
    mkdirSync(profileDir, { recursive: true });
    profile.BENCH_CPU_PROFILE_DIR = resolve(profileDir);
    profile.NODE_OPTIONS = `--import ${new URL('./cpu-profile.mjs', import.meta.url).href}`;
  }
  const station = await npmStart({ DATA_DIR: dataDir, DATABASE_URL: '', ...profile }, port).catch(
    (error: unknown) => {
      remove();
      throw error;
    },
  );
  const stop = async () => {
    await station.stop();
    remove();
  };
  started.stops.push(stop);
  // The station is the node process npm's start script runs, with its flags.
  const pid = descendants(station.child.pid!).find((p) =>
    /^\S*node (--\S+ )*scripts\/start\.mjs/.test(commandLine(p)),
  );
  if (!pid) throw new Error('the station process was not found under npm start');
  return {
    name: 'station',
    url: `ws://127.0.0.1:${port}/ws`,
    origin: station.origin,
    pid,
    helpers: () => descendants(pid).filter((p) => p !== pid),
    stop,
  };
}

// --- moderation on: blocked words saved, one unrelated sender muted ---------------------------------------
export const BLOCKED_WORDS = ['scoundrel', 'blast it', 'rubbish'];

/**
 * Staff save blocked words (so the matcher runs on every message) and mute one sender who is not part of
 * the run after its first message (so every message's mute lookup has a mute to look through). Checked:
 * the muted sender's next message comes back to it alone, and a blocked word is refused.
 */
export async function moderate(
  server: Server,
  senders: SenderPool,
  address: string,
  runId: string,
): Promise<{ speaker: Speaker; summary: string }> {
  const token = await signIn(server.origin, BENCH_ADMIN);
  await staffCall(server.origin, token, 'PUT', '/api/chat/blocked-words', { words: BLOCKED_WORDS });

  const speaker = await openSpeaker(server.url, address, `bench-muted-${runId}`);
  const isChat = (text: string) => (frame: string) =>
    frame.startsWith('{"type":"chat",') && frame.includes(text);
  speaker.say('Hello from the back row', 'Back row');
  const first = JSON.parse(await speaker.next(isChat('Hello from the back row'))) as { data: { id: string } };
  await staffCall(server.origin, token, 'POST', '/api/chat/mutes', { messageId: first.data.id, minutes: 60 });
  const hidden = `A second word from the back row ${runId}`;
  speaker.say(hidden, 'Back row');
  await speaker.next(isChat(hidden));
  speaker.say('What rubbish', 'Back row');
  await speaker.next((frame) => frame.startsWith('{"type":"error"') && frame.includes(BLOCKED_WORDS_MESSAGE));
  await sleep(1_000);
  if (senders.speakers.some((s) => s.others.some((frame) => frame.includes(hidden))))
    throw new Error("a muted sender's message reached the room");
  return {
    speaker,
    summary: `${BLOCKED_WORDS.length} blocked words saved (a message with one refused); ${address} muted, its next message seen by it alone`,
  };
}
