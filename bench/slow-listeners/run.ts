// bench/slow-listeners: N connections to /stream from one address that never read, and one real listener,
// for S seconds, on our station and on Icecast fed the same live source in the same run. Prints the real
// listener's rate and largest gap, how many stalled listeners each server dropped and when, and the
// kernel send-queue total of each server's connections (issue: hardening, fault 3). Run by hand:
//   node --import tsx bench/slow-listeners/run.ts [--stalled N] [--seconds S]
import { type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { readSendQueues } from '../../src/server/radio/send-queues';
import { startIcecastTarget, startOurs, startSource, type Target } from '../listeners/targets';

const { values } = parseArgs({
  options: { stalled: { type: 'string', default: '200' }, seconds: { type: 'string', default: '60' } },
});
const stalledCount = Number(values.stalled);
const seconds = Number(values.seconds);
const children: ChildProcess[] = [];
const targets: Target[] = [];

interface Figures {
  name: string;
  kbps: number;
  largestGapMs: number;
  accepted: number;
  dropped: { count: number; firstS: number | null; lastS: number | null };
  queueMbAtEnd: number;
  queueMbPeak: number;
}

async function measure(target: Target): Promise<Figures> {
  // The real listener: reads everything, notes every gap between arrivals.
  let bytes = 0;
  let last = 0;
  let largestGapMs = 0;
  const reader = get(`http://127.0.0.1:${target.port}${target.path(128)}`, (res) =>
    res.on('data', (chunk: Buffer) => {
      const now = performance.now();
      if (last && bytes > 64 * 1024) largestGapMs = Math.max(largestGapMs, now - last);
      last = now;
      bytes += chunk.length;
    }),
  );
  reader.on('error', () => {});
  await sleep(3000); // past its first burst
  const countedFrom = { bytes, at: performance.now() };

  const started = performance.now();
  const drops: number[] = [];
  const dropped = new Set<net.Socket>();
  let accepted = 0;
  const stalled = Array.from({ length: stalledCount }, () => {
    const socket = net.connect(target.port, '127.0.0.1', () => {
      socket.write(`GET ${target.path(128)} HTTP/1.0\r\nHost: station\r\n\r\n`);
      socket.pause(); // never reads
    });
    socket.on('error', () => {});
    socket.once('connect', () => accepted++);
    return socket;
  });

  let queuePeak = 0;
  let queueNow = 0;
  const end = started + seconds * 1000;
  while (performance.now() < end) {
    await sleep(1000);
    const all = await readSendQueues(target.port, { closing: true });
    queueNow = [...all.values()].reduce((sum, q) => sum + q, 0);
    queuePeak = Math.max(queuePeak, queueNow);
    // A paused socket never reads the server's close: its connection leaving the server's open ones is
    // how a drop shows.
    const open = await readSendQueues(target.port);
    for (const socket of stalled)
      if (socket.localPort && !dropped.has(socket) && !open.has(`127.0.0.1:${socket.localPort}`)) {
        dropped.add(socket);
        drops.push((performance.now() - started) / 1000);
      }
  }
  const kbps = ((bytes - countedFrom.bytes) * 8) / 1000 / ((performance.now() - countedFrom.at) / 1000);
  reader.destroy();
  for (const socket of stalled) socket.destroy();
  const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
  return {
    name: target.name,
    kbps,
    largestGapMs,
    accepted,
    dropped: {
      count: drops.length,
      firstS: drops.length ? Math.min(...drops) : null,
      lastS: drops.length ? Math.max(...drops) : null,
    },
    queueMbAtEnd: mb(queueNow),
    queueMbPeak: mb(queuePeak),
  };
}

try {
  targets.push(await startOurs(stalledCount + 1024, (child) => children.push(child)));
  targets.push(await startIcecastTarget(stalledCount + 8, (child) => children.push(child)));
  children.push(startSource(targets.flatMap((t) => t.sources)));
  for (const target of targets) await target.waitForSource(15_000);
  const figures: Figures[] = [];
  for (const target of targets) {
    console.log(
      `measuring ${target.name}: ${stalledCount} listeners that never read and one that does, ${seconds} s...`,
    );
    figures.push(await measure(target));
    await sleep(3000);
  }
  const at = (s: number | null) => (s === null ? '-' : `${s.toFixed(0)} s`);
  const rows: [string, (f: Figures) => string][] = [
    ['real listener rate', (f) => `${f.kbps.toFixed(1)} kbps`],
    ['real listener largest gap', (f) => `${f.largestGapMs.toFixed(0)} ms`],
    ['stalled connections accepted', (f) => String(f.accepted)],
    [
      'stalled listeners dropped',
      (f) => `${f.dropped.count} (first ${at(f.dropped.firstS)}, last ${at(f.dropped.lastS)})`,
    ],
    ['kernel send queues, peak', (f) => `${f.queueMbPeak} MB`],
    ['kernel send queues, at the end', (f) => `${f.queueMbAtEnd} MB`],
  ];
  console.log(`\n${''.padEnd(32)}${figures.map((f) => f.name.padEnd(34)).join('')}`);
  for (const [label, cell] of rows)
    console.log(`${label.padEnd(32)}${figures.map((f) => cell(f).padEnd(34)).join('')}`);
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await Promise.all(targets.map((target) => target.stop().catch(() => undefined)));
  for (const child of children) child.kill('SIGKILL');
  process.exit();
}
