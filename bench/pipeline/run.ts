// CPU and memory of the station's audio pipeline (the library decoded, levelled, crossfaded, and encoded at
// 128, 96, 80 and 64 kbps), beside Liquidsoap doing the same job in the same run. Fails when ours uses more
// CPU than Liquidsoap (issue 22's target).
// Usage: node --import tsx bench/pipeline/run.ts [--seconds S] [--warmup S] [--no-listeners]  (see README.md)
import { type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { stopProcess, waitFor } from '../../src/server/test/icecast-server';
import { treeCpuBetween, treeProcesses } from '../listeners/proc';
import { startOurs } from '../listeners/targets';
import { ensureBuilt } from '../server-build';
import { signIn, staffCall } from '../staff';
import {
  CROSSFADE_SECONDS,
  encodeProblems,
  liquidsoapVersion,
  preparedTracks,
  probeEncodes,
  startLiquidsoap,
  writePlaylist,
  type EncodeCheck,
} from './liquidsoap';
import { makeLibrary } from './tracks';

const BITRATES = [128, 96, 80, 64]; // SPEC.md's quality table
const TARGET_LUFS = -16; // the station's default loudness target
const PUBLISHED_PERCENT_PER_STREAM = '4-5'; // Liquidsoap's published figure, % of a core per encoded stream
const SLICE_SECONDS = 10;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    'no-listeners': { type: 'boolean', default: false },
  },
});
const seconds = Math.min(600, Math.max(10, Number(args.seconds) || 60));
const warmup = Math.min(120, Math.max(0, Number(args.warmup ?? 10)));
const listen = !args['no-listeners'];

const version = await liquidsoapVersion();
if (!version) {
  console.log('Liquidsoap is the reference and is not installed: apt-get install -y liquidsoap');
  process.exit(2);
}

// --- cleanup: children end with us, on success, error or Ctrl-C -------------------------------------
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pipeline-bench-'));
const cleanup = async () => {
  await Promise.all(children.map((c) => stopProcess(c)));
  rmSync(dir, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  console.log('\nSIGINT: stopping');
  void cleanup().then(() => process.exit(130));
});
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));

// --- measurement -------------------------------------------------------------------------------------------
interface Figures {
  /** Share of one core used by the whole process tree over the window. */
  cores: number;
  /** The same by command name ('ended': processes that ended during the window). */
  coresByName: Map<string, number>;
  /** Each SLICE_SECONDS of the window: a warm-up that was too short shows as a high first slice. */
  slices: number[];
  /** The machine's 1-minute load average as the window began: other work shows in every figure. */
  load: number;
  peakRssMb: number;
  peakRssMbByName: Map<string, number>;
  processesByName: Map<string, number>;
}

const sumOf = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/**
 * Warm-up, then the window: the tree's CPU between its ends, and its resident memory every second.
 * `window` hears when it starts and ends; `note` adds what is on the air to each slice's line.
 */
async function measureTree(
  name: string,
  root: number,
  { window, note }: { window?: { start(): void; end(): void }; note?: () => Promise<string> } = {},
) {
  await sleep(warmup * 1000);
  const alive = () => existsSync(`/proc/${root}`);
  const load = loadavg()[0]!;
  const first = treeProcesses(root);
  const t0 = performance.now();
  window?.start();
  let sliceStart = { at: t0, tree: first };
  let last = first;
  let lastAt = t0;
  const slices: number[] = [];
  let peakRssMb = 0;
  const peakRssMbByName = new Map<string, number>();
  const processesByName = new Map<string, number>();
  for (let s = 1; s <= seconds; s++) {
    await sleep(Math.max(0, t0 + s * 1000 - performance.now()));
    if (!alive()) throw new Error(`${name} exited during the window`);
    last = treeProcesses(root);
    lastAt = performance.now();
    const rssByName = new Map<string, number>();
    const countByName = new Map<string, number>();
    for (const p of last) {
      rssByName.set(p.name, (rssByName.get(p.name) ?? 0) + p.rssBytes / 1024 / 1024);
      countByName.set(p.name, (countByName.get(p.name) ?? 0) + 1);
    }
    peakRssMb = Math.max(peakRssMb, sumOf(rssByName.values()));
    for (const [n, mb] of rssByName) peakRssMbByName.set(n, Math.max(peakRssMbByName.get(n) ?? 0, mb));
    for (const [n, c] of countByName) processesByName.set(n, Math.max(processesByName.get(n) ?? 0, c));
    if (s % SLICE_SECONDS === 0 || s === seconds) {
      const share = sumOf(treeCpuBetween(sliceStart.tree, last).values()) / ((lastAt - sliceStart.at) / 1000);
      slices.push(share);
      const noted = note ? `  (${await note().catch((error: Error) => error.message)})` : '';
      console.log(`  ${name}, ${String(s).padStart(3)} s: ${pct(share)} of a core${noted}`);
      sliceStart = { at: lastAt, tree: last };
    }
  }
  window?.end();
  const elapsed = (lastAt - t0) / 1000;
  const coresByName = new Map(
    [...treeCpuBetween(first, last)]
      .map(([n, cpu]) => [n, cpu / elapsed] as const)
      .filter(([, cores]) => Math.abs(cores) >= 0.0005),
  );
  return {
    cores: sumOf(coresByName.values()),
    coresByName,
    slices,
    load,
    peakRssMb,
    peakRssMbByName,
    processesByName,
  } satisfies Figures;
}

/** One listener on an address: what it answered, and the bytes received while counting. */
function listener(url: string) {
  const state = { status: 0, type: '', bytes: 0, counting: false, error: '' };
  const req = request(url, (res) => {
    state.status = res.statusCode ?? 0;
    state.type = res.headers['content-type'] ?? '';
    res.on('data', (chunk: Buffer) => state.counting && (state.bytes += chunk.length));
    res.on('error', () => {});
  });
  req.on('error', (error) => (state.error = error.message));
  req.end();
  return { state, stop: () => req.destroy() };
}

// --- run ----------------------------------------------------------------------------------------------------
const pct = (cores: number) => `${(cores * 100).toFixed(1)} %`;
const streamPath = (kbps: number) => (kbps === 128 ? '/stream' : `/stream/${kbps}`);
const took = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

try {
  ensureBuilt();
  const libraryDir = join(dir, 'library');
  mkdirSync(libraryDir);
  console.log('Making the library (ffmpeg)...');
  let phase = performance.now();
  const tracks = await makeLibrary(libraryDir);
  console.log(`  made in ${took(phase)}:`);
  for (const t of tracks)
    console.log(
      `  ${basename(t.path).padEnd(16)}${t.format.padEnd(20)}${String(t.seconds).padStart(3)} s  ${t.lufs.toFixed(1).padStart(5)} LUFS  ${t.truePeak.toFixed(1).padStart(5)} dBTP`,
    );
  const playlist = join(dir, 'playlist.m3u');
  writePlaylist(tracks, playlist, TARGET_LUFS);

  // Liquidsoap's job checked first: the whole playlist once, as fast as it goes, every encode probed.
  console.log(`\nChecking ${version}: the playlist once, four MP3 encodes...`);
  const checkEncodes = BITRATES.map((kbps) => ({ kbps, path: join(dir, `check-${kbps}.mp3`) }));
  phase = performance.now();
  const check = startLiquidsoap(dir, 'check', playlist, checkEncodes, true);
  children.push(check.child);
  const checkCode = await Promise.race([
    check.exited,
    sleep(300_000, 'timed out', { ref: false }), // unref'd: the bench ends when its work does
  ]);
  const expected = sumOf(tracks.map((t) => t.seconds)) - (tracks.length - 1) * CROSSFADE_SECONDS;
  const checked = await probeEncodes(checkEncodes);
  const checkProblems = [
    ...(checkCode === 'timed out' ? ['liquidsoap did not finish within 300 s'] : []),
    ...(checkCode !== 0 && checkCode !== 'timed out' ? [`liquidsoap ended with ${checkCode}`] : []),
    ...(preparedTracks(check.log()) !== tracks.length
      ? [`${preparedTracks(check.log())} of ${tracks.length} tracks started`]
      : []),
    ...encodeProblems(checked, expected - 1.5, expected + 1.5),
  ];
  if (checkProblems.length > 0)
    throw new Error(
      `Liquidsoap did not do the job: ${checkProblems.join('; ')}\n${check.log().slice(-3000)}`,
    );
  console.log(
    `  all ${tracks.length} tracks played in ${took(phase)}, ${describeEncodes(checked)} (expected ${expected.toFixed(1)} s: the tracks less ${tracks.length - 1} crossfades)`,
  );

  // Liquidsoap in real time.
  console.log(`\nLiquidsoap in real time: ${warmup} s warm-up, then ${seconds} s measured...`);
  const liqEncodes = BITRATES.map((kbps) => ({ kbps, path: join(dir, `liquidsoap-${kbps}.mp3`) }));
  const liq = startLiquidsoap(dir, 'timed', playlist, liqEncodes, false);
  children.push(liq.child);
  // From its clock's start: the files are written a buffer at a time, seconds later.
  await waitFor(
    'Liquidsoap to start streaming',
    () => (liq.log().includes('Streaming loop starts') ? true : undefined),
    30_000,
  );
  const liqStarted = performance.now();
  const liqFigures = await measureTree('Liquidsoap', liq.child.pid!, {
    note: async () => `tracks started: ${preparedTracks(liq.log())}`,
  });
  await stopProcess(liq.child);
  const liqRan = (performance.now() - liqStarted) / 1000;
  const liqChecked = await probeEncodes(liqEncodes);
  const liqProblems = encodeProblems(liqChecked, liqRan - 3, liqRan + 3);
  if (liqProblems.length > 0)
    throw new Error(
      `Liquidsoap's real-time run is not valid: ${liqProblems.join('; ')}\n${liq.log().slice(-3000)}`,
    );

  // Ours: the built server, the library in DATA_DIR/media, one listener on each bitrate's address.
  console.log(`\nOur station: ${warmup} s warm-up, then ${seconds} s measured...`);
  let stationOutput = '';
  let stopping = false;
  const station = await startOurs(
    4096,
    (child) => {
      children.push(child);
      const collect = (chunk: Buffer) => (stationOutput = (stationOutput + chunk.toString()).slice(-8192));
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (code, signal) => {
        if (!stopping) console.log(`the station exited (${code ?? signal}):\n${stationOutput}`);
      });
    },
    (dataDir) => {
      mkdirSync(join(dataDir, 'media'));
      for (const t of tracks) copyFileSync(t.path, join(dataDir, 'media', basename(t.path)));
    },
  );
  // Liquidsoap is handed each track's loudness in its playlist; ours measures its library on the first start.
  // That analysis is not the pipeline's work. Both sides must also play the same audio in their windows (the
  // encoders' and the limiter's cost depend on it), and with no playlist ours shuffles the library: staff's
  // way to play it in file order, as Liquidsoap's playlist does, is a playlist in order in the rotation. The
  // window begins as its first track starts, as Liquidsoap's does.
  const origin = `http://127.0.0.1:${station.port}`;
  const onAir = async () => {
    const response = await fetch(`${origin}/api/radio/current`);
    const now = (await response.json()) as { current_track?: { title?: string } };
    return now.current_track?.title ?? 'nothing';
  };
  phase = performance.now();
  const token = await signIn(origin, station.admin);
  const items = await waitFor(
    'the library to be measured',
    async () => {
      const { items } = await staffCall<{ items: { id: string; original_name: string; status: string }[] }>(
        origin,
        token,
        'GET',
        '/api/library?limit=200',
      );
      return items.length === tracks.length && items.every((item) => item.status === 'ready')
        ? items
        : undefined;
    },
    180_000,
  );
  const inOrder = await staffCall<{ id: string }>(origin, token, 'POST', '/api/admin/playlists', {
    name: 'Bench, in file order',
    order: 'in_order',
    in_rotation: true,
    no_repeat_title_minutes: 0,
    no_repeat_artist_minutes: 0,
  });
  const byName = new Map(items.map((item) => [item.original_name, item.id]));
  await staffCall(origin, token, 'PUT', `/api/admin/playlists/${inOrder.id}/items`, {
    media_ids: tracks.map((t) => byName.get(basename(t.path))!),
  });
  console.log(`  the library measured and in a playlist in file order after ${took(phase)}`);
  let previous = await onAir();
  await waitFor(
    `${tracks[0]!.title} to start`,
    async () => {
      const title = await onAir();
      const started = title === tracks[0]!.title && previous !== title;
      previous = title;
      return started ? true : undefined;
    },
    600_000,
  );
  console.log(`  ${tracks[0]!.title} on the air after ${took(phase)}`);
  const listeners = listen
    ? BITRATES.map((kbps) => ({ kbps, ...listener(`${origin}${streamPath(kbps)}`) }))
    : [];
  const oursFigures = await measureTree('ours', station.pid, {
    window: {
      start: () => listeners.forEach((l) => (l.state.counting = true)),
      end: () => listeners.forEach((l) => (l.state.counting = false)),
    },
    note: async () => `on the air: ${await onAir()}`,
  });
  listeners.forEach((l) => l.stop());
  stopping = true;
  await station.stop();

  if (!report(oursFigures, liqFigures, liqChecked, listeners)) process.exitCode = 1;
} catch (error) {
  console.log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}

function describeEncodes(checks: EncodeCheck[]) {
  return `four MP3 encodes of ${checks[0]!.seconds.toFixed(1)} s: ${checks.map((c) => `${c.measuredKbps.toFixed(1)} kbps ${c.sampleRate / 1000} kHz ${c.channels === 1 ? 'mono' : 'stereo'}`).join(', ')}`;
}

function report(
  ours: Figures,
  liq: Figures,
  liqEncodes: EncodeCheck[],
  listeners: { kbps: number; state: { status: number; type: string; bytes: number; error: string } }[],
) {
  const byName = (values: Map<string, number>, count: Map<string, number>, format: (v: number) => string) =>
    [...values]
      .sort((a, b) => b[1] - a[1])
      .map(([n, v]) => `${n}${(count.get(n) ?? 1) > 1 ? ` x${count.get(n)}` : ''} ${format(v)}`)
      .join(', ');
  const heard = (kbps: number) => {
    const path = streamPath(kbps);
    const state = listeners.find((l) => l.kbps === kbps)?.state;
    if (!state) return `${path}: no listener`;
    if (state.status !== 200 || !state.type.startsWith('audio/'))
      return `${path}: ${state.error || `${state.status} ${state.type.split(';')[0]}`}, not served`;
    return `${path}: ${((state.bytes * 8) / seconds / 1000).toFixed(1)} kbps received`;
  };
  const written = (c: EncodeCheck) =>
    `file: ${c.codec} ${c.measuredKbps.toFixed(1)} kbps, ${c.sampleRate / 1000} kHz, ${c.seconds.toFixed(1)} s`;
  const rows: [string, string, string][] = [
    ['CPU, whole process tree', `${pct(ours.cores)} of a core`, `${pct(liq.cores)} of a core`],
    [
      '  by process',
      byName(ours.coresByName, ours.processesByName, pct),
      byName(liq.coresByName, liq.processesByName, pct),
    ],
    [
      `  each ${SLICE_SECONDS} s`,
      ours.slices.map((s) => pct(s)).join(' '),
      liq.slices.map((s) => pct(s)).join(' '),
    ],
    ['RSS, whole tree (peak)', `${ours.peakRssMb.toFixed(0)} MB`, `${liq.peakRssMb.toFixed(0)} MB`],
    [
      '  by process (peak)',
      byName(ours.peakRssMbByName, ours.processesByName, (v) => `${v.toFixed(0)} MB`),
      byName(liq.peakRssMbByName, liq.processesByName, (v) => `${v.toFixed(0)} MB`),
    ],
    ...liqEncodes.map((c): [string, string, string] => [`${c.kbps} kbps output`, heard(c.kbps), written(c)]),
    ['machine load (1 min)', ours.load.toFixed(2), liq.load.toFixed(2)],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), i === 2 ? 0 : 4));
  console.log(
    `\n${seconds} s window after ${warmup} s warm-up, one after the other; ${cpus().length} cores (${cpus()[0]?.model.trim()})\n`,
  );
  console.log(`${''.padEnd(widths[0]!)}  ${'ours'.padEnd(widths[1]!)}  ${version}`);
  for (const [label, a, b] of rows) console.log(`${label.padEnd(widths[0]!)}  ${a.padEnd(widths[1]!)}  ${b}`);
  console.log(
    `\nLiquidsoap here: ${pct(liq.cores / BITRATES.length)} of a core per encoded stream; published figure about ${PUBLISHED_PERCENT_PER_STREAM} % per stream.`,
  );
  // A station that went quiet would use little CPU: its figure only counts when /stream carried audio.
  const main = listeners.find((l) => l.kbps === 128)?.state;
  const onAir = !main || (main.status === 200 && (main.bytes * 8) / seconds >= 0.9 * 128_000);
  const met = onAir && ours.cores <= liq.cores;
  console.log(
    onAir
      ? `Target: ours at most Liquidsoap's CPU: ${met ? 'met' : 'NOT met'} (${pct(ours.cores)} vs ${pct(liq.cores)} of a core, ratio ${(ours.cores / liq.cores).toFixed(2)})`
      : `Target: not judged: /stream did not carry 128 kbps of audio through the window`,
  );
  return met;
}
