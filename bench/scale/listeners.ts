// Listeners on the scaled set: one group on the broadcaster's /stream, one on the relay's, each a
// bench/listeners listener process, counted for bitrate over one window that spans the chat measurement.
import { fork, type ChildProcess } from 'node:child_process';
import type { FromWorker, ToWorker, WorkerInput } from '../listeners/listener-worker';

export interface Group {
  name: string;
  url: string;
  count: number;
  worker: ChildProcess;
}

type Result = Extract<FromWorker, { type: 'result' }>;

export interface GroupFigures {
  name: string;
  count: number;
  /** Still connected at the window's end, receiving audio. */
  connected: number;
  failed: number;
  dropped: number;
  /** Each listener's bitrate over the window as a fraction of the stream's (0 for one gone or never there). */
  shares: number[];
}

function next<T extends FromWorker['type']>(worker: ChildProcess, type: T, ms: number) {
  return new Promise<Extract<FromWorker, { type: T }>>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`a listener process did not answer '${type}'`));
    }, ms);
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return;
      done();
      resolve(message as Extract<FromWorker, { type: T }>);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`a listener process exited (${code})`));
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

/** The stream's bitrate in kbps, from the icy-br header of its /stream (one listener for a moment). */
export async function streamBitrateKbps(url: string): Promise<number> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  const kbps = Number(response.headers.get('icy-br'));
  abort.abort();
  if (!(kbps > 0)) throw new Error(`${url} gave no icy-br header`);
  return kbps;
}

/** Opens each group's listeners (one process per group) and resolves once all receive audio or failed. */
export async function startGroups(
  groups: { name: string; url: string; count: number }[],
  onSpawn: (child: ChildProcess) => void,
): Promise<Group[]> {
  const started = groups.map((group) => {
    const url = new URL(group.url);
    const input: WorkerInput = {
      host: url.hostname,
      port: Number(url.port),
      paths: [url.pathname],
      count: group.count,
      perSecond: 200,
      burstWindowMs: 500,
      // No probes: every listener here stays for the whole window.
      probeEveryMs: 2_000_000_000,
    };
    const worker = fork(new URL('../listeners/listener-worker.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_LISTENER_WORKER: JSON.stringify(input) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    worker.on('error', () => {}); // a message to one already gone
    onSpawn(worker);
    return { ...group, worker };
  });
  await Promise.all(started.map((g) => next(g.worker, 'ramped', 120_000)));
  return started;
}

export const startWindow = (groups: Group[]) =>
  groups.forEach((g) => g.worker.send({ type: 'window-start' } satisfies ToWorker));

export async function endWindow(groups: Group[], bitrateKbps: number): Promise<GroupFigures[]> {
  const results = groups.map((g) => next(g.worker, 'result', 30_000));
  groups.forEach((g) => g.worker.send({ type: 'window-end' } satisfies ToWorker));
  const parts: Result[] = await Promise.all(results);
  const bytesPerSecond = (bitrateKbps * 1000) / 8;
  return groups.map((group, i) => {
    const part = parts[i]!;
    return {
      name: group.name,
      count: group.count,
      connected: part.rates.filter((r) => Number.isFinite(r) && r > 0).length,
      failed: part.connectErrors + part.badResponses + part.notMp3,
      dropped: part.closedEarly,
      shares: part.rates.map((r) => (Number.isFinite(r) ? r / bytesPerSecond : 0)),
    };
  });
}

export function closeGroups(groups: Group[]) {
  for (const g of groups) {
    if (g.worker.connected) g.worker.send({ type: 'close' } satisfies ToWorker, () => {});
  }
}
