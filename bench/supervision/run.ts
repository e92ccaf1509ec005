// How fast the radio engine replaces an encoder or decoder that hangs (SIGSTOP: alive, writing nothing) or dies
// (SIGKILL), and what a listener hears meanwhile. Issue 42 point 6's target: replaced within 1 s of the first
// missing frame, at most 1 s of silence heard. Fails (exit 1) when a case's worst trial misses it.
// Usage: node --import tsx bench/supervision/run.ts [--trials N]  (see README.md)
import { DEFAULT_AUDIO_SETTINGS } from '../../src/common/audio-settings';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import Fastify from 'fastify';
import { STREAM_BITRATES } from '../../src/common/radio';
import { analyseAudio } from '../../src/server/radio/analysis';
import { lamePath } from '../../src/server/radio/encoder-run';
import { RadioEngine } from '../../src/server/radio/engine';
import { ffmpegPath } from '../../src/server/radio/ffmpeg';
import { tempAudioDir } from '../../src/server/radio/test-audio';
import { createTestDatabase } from '../../src/server/test/helpers';
import { radioStorage } from '../../src/server/test/radio-storage';

const run = promisify(execFile);
const TARGET_MS = 1000;
/** Bytes a second of the main mount (128 kbps CBR): a position in the capture from its length. */
const BYTES_PER_SECOND = 16_000;
/** What a listener records after the signal: enough for a replacement and what follows it. */
const AFTER_SECONDS = 4;
/** The bench's one item: long enough that its decoder runs (decoding ahead) through every trial. */
const ITEM_SECONDS = 600;
const DEADLINE_MS = 9 * 60_000;
/** The engine's tick (its default, which the bench keeps). */
const TICK_MS = 200;

const { values: args } = parseArgs({ options: { trials: { type: 'string', default: '5' } } });
const trials = Math.min(20, Math.max(1, Number(args.trials) || 5));

type Kind = 'encoder' | 'decoder';
interface Case {
  name: string;
  kind: Kind;
  signal: NodeJS.Signals;
}
const CASES: Case[] = [
  { name: 'encoder hangs (SIGSTOP)', kind: 'encoder', signal: 'SIGSTOP' },
  { name: 'decoder hangs (SIGSTOP)', kind: 'decoder', signal: 'SIGSTOP' },
  { name: 'encoder killed (SIGKILL)', kind: 'encoder', signal: 'SIGKILL' },
  { name: 'decoder killed (SIGKILL)', kind: 'decoder', signal: 'SIGKILL' },
];

interface Trial {
  /** From the first missing frame (the engine's first tick due after the signal) to the replacement's first frame. */
  replacedMs: number;
  /** The same from the signal. */
  fromSignalMs: number;
  /** From the signal to the engine's log line that it is restarting the process. */
  foundMs: number;
  /** The longest wait between bytes reaching the listener, from the signal on. */
  longestWaitMs: number;
  /** The longest silence (under −60 dBFS, at least 10 ms) the listener's recording holds from the signal on. */
  longestSilenceMs: number;
}

const started = performance.now();
const dir = await tempAudioDir();
const database = await createTestDatabase();
let engine: RadioEngine | null = null;
let server: http.Server | null = null;
const cleanup = async () => {
  await engine?.stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  await database.close();
  await rm(dir, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  console.log('\nSIGINT: stopping');
  void cleanup().then(() => process.exit(130));
});

/** A listener on a mount, without ICY metadata: the bytes and when each piece arrived. */
class Listener {
  readonly chunks: Buffer[] = [];
  readonly arrivals: { at: number; bytes: number }[] = [];
  bytes = 0;
  closed = false;
  private readonly req: http.ClientRequest;
  private waiters: (() => void)[] = [];

  constructor(url: string) {
    this.req = http.get(url, (res) => {
      res.on('data', (chunk: Buffer) => {
        this.chunks.push(chunk);
        this.bytes += chunk.length;
        this.arrivals.push({ at: performance.now(), bytes: this.bytes });
        for (const wake of this.waiters.splice(0)) wake();
      });
      res.on('close', () => this.end());
    });
    this.req.on('error', () => this.end());
  }

  async until(check: () => boolean): Promise<void> {
    while (!check()) {
      if (this.closed) throw new Error('the listener was disconnected');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.req.destroy();
  }

  private end(): void {
    this.closed = true;
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** This process's children (the engine's audio processes): pid and command line, read from /proc. */
function children(): { pid: number; args: string }[] {
  const pids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
  return pids.filter(Boolean).flatMap((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      return [{ pid: Number(pid), args }];
    } catch {
      return []; // ended between the two reads
    }
  });
}

/** Bytes a process has written (its pipes included): its first output is its first frame. */
function written(pid: number): number {
  try {
    return Number(/wchar: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Silences (under −60 dBFS, as pipeline.test.ts reads them) of at least 10 ms in a recording. */
async function silences(path: string): Promise<{ start: number; seconds: number }[]> {
  const { stderr } = await run(ffmpegPath(), [
    ...['-hide_banner', '-nostats', '-i', path],
    ...['-af', 'silencedetect=n=-60dB:d=0.01', '-f', 'null', '-'],
  ]);
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const lengths = [...stderr.matchAll(/silence_duration: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.map((start, i) => ({ start, seconds: lengths[i] ?? Infinity }));
}

try {
  // --- the station: one long item, the engine as pipeline.test.ts runs it, its main mount over HTTP -------------
  // The encoder as processes, whose hangs and deaths this measures: where the LAME library loads, the station
  // encodes in its own process and no encoder process runs (decision 042).
  process.env.LAME_LIBRARY = '';
  const path = join(dir, 'sermon.mp3');
  await run(ffmpegPath(), [
    ...['-v', 'error', '-f', 'lavfi', '-t', String(ITEM_SECONDS), '-i', 'anoisesrc=color=brown:seed=3'],
    ...['-af', 'tremolo=f=1:d=0.3,volume=-10dB', '-ar', '44100', '-ac', '2', '-b:a', '192k', path],
  ]);
  const analysis = await analyseAudio(path);
  const item = {
    path,
    title: 'Sermon',
    artist: 'Bench',
    loudnessLufs: analysis.loudnessLufs,
    truePeakDbtp: analysis.truePeakDbtp,
    cueIn: analysis.cueInSeconds,
    cueOut: analysis.cueOutSeconds,
  };
  const logged: { at: number; msg: string }[] = [];
  const station = (engine = new RadioEngine({
    config: {
      dataDir: dir,
      station: { name: 'Bench Radio', networkName: 'N', networkUrl: 'https://e.org', timeZone: 'UTC' },
    },
    storage: {
      ...radioStorage(database.db, {}),
      audioSettings: async () => ({ ...DEFAULT_AUDIO_SETTINGS, bitrates: [...STREAM_BITRATES] }),
    },
    // Its log, timed: when the engine found the failure ('... restarting it').
    log: Fastify({
      logger: {
        level: 'info',
        stream: {
          write: (line: string) => void logged.push({ at: performance.now(), msg: JSON.parse(line).msg }),
        },
      },
    }).log,
  }));
  station.addSource(async () => [item]);
  // Each tick the engine mixes audio (taking it from the decoder) and writes it to the encoder: from the first
  // tick due after a signal, the process owes output it will not give. Observed, not changed.
  const ticks: number[] = [];
  const tick = station.tick.bind(station);
  station.tick = () => {
    ticks.push(performance.now());
    tick();
  };
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
    station.mount(128)!.addListener(res, { icy: false });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
  await station.start();
  const encoders = lamePath() ? STREAM_BITRATES.length : 1;
  const matches = (kind: Kind) => (p: { args: string }) =>
    kind === 'encoder' ? /libmp3lame|^\S*lame /.test(p.args) : p.args.includes(path);

  async function trial({ kind, signal }: Case, index: number): Promise<Trial> {
    const ear = new Listener(url);
    // The burst on connecting, then a moment of steady flow.
    await ear.until(() => ear.bytes >= 3 * BYTES_PER_SECOND);
    await sleep(500);
    const before = children().filter(matches(kind));
    const target = before[index % before.length];
    if (!target) throw new Error(`no ${kind} process running`);
    const old = new Set(before.map((p) => p.pid));
    const expected = kind === 'encoder' ? encoders : 1;
    // The replacement's processes and when each first wrote, polled every 10 ms from the signal on.
    const firstWrite = new Map<number, number>();
    let replacedAt = 0;
    const poll = setInterval(() => {
      const now = performance.now();
      for (const p of children().filter(matches(kind)))
        if (!old.has(p.pid) && !firstWrite.has(p.pid) && written(p.pid) > 0) firstWrite.set(p.pid, now);
      if (firstWrite.size >= expected) {
        replacedAt = Math.max(...firstWrite.values());
        clearInterval(poll);
      }
    }, 10);
    const bytesAtSignal = ear.bytes;
    const signalledAt = performance.now();
    process.kill(target.pid, signal);
    await ear.until(
      () =>
        ear.bytes >= bytesAtSignal + AFTER_SECONDS * BYTES_PER_SECOND ||
        performance.now() > signalledAt + 10_000,
    );
    clearInterval(poll);
    ear.close();
    if (!replacedAt && signal === 'SIGSTOP') process.kill(target.pid, 'SIGKILL'); // never found: let it go
    // The first tick due after the signal: the one that came, or the one before it plus a tick if that is earlier
    // (a tick held up, e.g. while Node spawns the replacement, does not move when the frame went missing).
    const lastBefore = ticks.findLast((t) => t <= signalledAt) ?? signalledAt;
    const firstMissing = Math.min(ticks.find((t) => t > signalledAt) ?? Infinity, lastBefore + TICK_MS);
    const found = logged.find((l) => l.at > signalledAt && / restarting it$/.test(l.msg))?.at;
    let previous = signalledAt;
    let longestWaitMs = 0;
    for (const { at } of ear.arrivals.filter((a) => a.at > signalledAt)) {
      longestWaitMs = Math.max(longestWaitMs, at - previous);
      previous = at;
    }
    const capture = join(dir, `trial-${kind}-${signal}-${index}.mp3`);
    await writeFile(capture, Buffer.concat(ear.chunks));
    // From just before the signal's place in the capture on (the burst on connecting may hold an earlier trial's).
    const signalAt = bytesAtSignal / BYTES_PER_SECOND;
    const quiet = (await silences(capture)).filter((s) => s.start + s.seconds > signalAt - 0.5);
    return {
      // A replacement that answered before that tick left no frame missing.
      replacedMs: replacedAt ? Math.max(0, replacedAt - firstMissing) : Infinity,
      fromSignalMs: replacedAt ? replacedAt - signalledAt : Infinity,
      foundMs: found ? found - signalledAt : Infinity,
      longestWaitMs,
      longestSilenceMs: Math.max(0, ...quiet.map((s) => s.seconds * 1000)),
    };
  }

  const load = loadavg()[0]!;
  console.log(
    `${trials} trials per case, taken in turn; ${cpus().length} cores (${cpus()[0]?.model.trim()}), load ${load.toFixed(2)}; encoder: ${lamePath() ? `lame x${encoders}` : 'ffmpeg'}\n`,
  );
  const results = new Map(CASES.map((c) => [c, [] as Trial[]]));
  for (let i = 0; i < trials && performance.now() - started < DEADLINE_MS; i++)
    for (const c of CASES) {
      const t = await trial(c, i);
      results.get(c)!.push(t);
      const ms = (v: number) => `${v.toFixed(0)} ms`;
      console.log(
        `  ${c.name}, trial ${i + 1}: replaced ${ms(t.replacedMs)} after the first missing frame (${ms(t.fromSignalMs)} after the signal, found after ${ms(t.foundMs)}), longest wait ${ms(t.longestWaitMs)}, longest silence ${ms(t.longestSilenceMs)}`,
      );
    }

  // --- report: a table per case, the verdict last ----------------------------------------------------------------
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  const cell = (values: number[]) =>
    `${quantile(values, 0.5).toFixed(0)} / ${Math.max(...values).toFixed(0)}`.padStart(12);
  const verdicts: string[] = [];
  console.log(
    `\nms, p50 / max; load ${load.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
  );
  for (const [c, list] of results) {
    console.log(`\n${c.name}, ${list.length} trials`);
    const rows: [string, number[]][] = [
      ['(a) first missing frame -> replacement first frame', list.map((t) => t.replacedMs)],
      ['    the same from the signal', list.map((t) => t.fromSignalMs)],
      ['    signal -> found (logged "restarting it")', list.map((t) => t.foundMs)],
      ['(b) longest wait between bytes at the listener', list.map((t) => t.longestWaitMs)],
      ['(c) longest silence heard', list.map((t) => t.longestSilenceMs)],
    ];
    for (const [label, values] of rows) console.log(`  ${label.padEnd(52)}${cell(values)}`);
    const worst = (pick: (t: Trial) => number) => Math.max(...list.map(pick));
    // (b) is printed, not judged: players hold seconds of audio (the burst), so a wait between bytes is not heard;
    // what a listener hears is (c).
    const missed = [
      ['(a)', worst((t) => t.replacedMs)],
      ['(c)', worst((t) => t.longestSilenceMs)],
    ].filter(([, v]) => (v as number) > TARGET_MS);
    verdicts.push(
      `  ${c.name}: ${missed.length ? `NOT met (${missed.map(([l, v]) => `${l} ${(v as number).toFixed(0)} ms`).join(', ')})` : 'met'}`,
    );
  }
  const met = verdicts.every((v) => v.endsWith(': met'));
  console.log(`\nTarget: each worst trial within ${TARGET_MS} ms on (a) and (c): ${met ? 'met' : 'NOT met'}`);
  for (const line of verdicts) console.log(line);
  if (!met) process.exitCode = 1;
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
