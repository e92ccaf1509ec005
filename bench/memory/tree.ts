// Resident memory of a process and all its descendants, read from /proc (Linux). PostgreSQL's own
// processes leave the process group (each calls setsid), so the tree is walked by parent pid instead.
import { readdirSync, readFileSync } from 'node:fs';

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};

export function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), pid]);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(parents.get(found[i]!) ?? []));
  return found;
}

const kb = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

export interface TreeMemory {
  processes: number;
  /** Sum of each process's resident set: pages shared between them (the node binary, PostgreSQL's
   * shared buffers) counted once per process, so an upper bound. */
  rssMb: number;
  /** Sum of proportional set sizes: each shared page split between its sharers, so counted once. */
  pssMb: number;
}

export function treeMemory(root: number): TreeMemory {
  let rss = 0;
  let pss = 0;
  let processes = 0;
  for (const pid of descendants(root)) {
    try {
      rss += kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      pss += kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      processes++;
    } catch {
      // the process ended between the listing and the read
    }
  }
  return { processes, rssMb: Math.round(rss / 1024), pssMb: Math.round(pss / 1024) };
}

/** Samples a tree every `everyMs` until stopped; keeps the peak of each measure. */
export function sampler(root: number, everyMs = 100) {
  const peak: TreeMemory = { processes: 0, rssMb: 0, pssMb: 0 };
  const sample = () => {
    const now = treeMemory(root);
    peak.processes = Math.max(peak.processes, now.processes);
    peak.rssMb = Math.max(peak.rssMb, now.rssMb);
    peak.pssMb = Math.max(peak.pssMb, now.pssMb);
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
