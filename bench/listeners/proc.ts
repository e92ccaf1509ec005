// Process figures from /proc (Linux): CPU time and resident memory of a server under test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendants } from '../memory/tree';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/PID/stat after the command name, which may hold spaces and parentheses. */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** User + system CPU seconds the process has used so far (fields 14 and 15 of /proc/PID/stat). */
export function cpuSeconds(pid: number): number {
  const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident set size in bytes (VmRSS of /proc/PID/status). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

export interface ProcessFigures {
  pid: number;
  /** The command name (comm): node, ffmpeg, postgres, liquidsoap. */
  name: string;
  /** CPU seconds of its own (utime + stime). */
  cpu: number;
  /** CPU seconds of its children that ended and were reaped (cutime + cstime, fields 16 and 17). */
  endedChildrenCpu: number;
  rssBytes: number;
}

/** Every process of a tree as it is now (walked by parent pid, so PostgreSQL's own sessions are in it). */
export function treeProcesses(root: number): ProcessFigures[] {
  const found: ProcessFigures[] = [];
  for (const pid of descendants(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = statFields(stat);
      found.push({
        pid,
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
        endedChildrenCpu: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
        rssBytes: rssBytes(pid),
      });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return found;
}

/**
 * CPU seconds a tree used between two snapshots, by command name. A process that ended in between (a
 * decoder at the end of its track) is not lost: its whole time moved into its parent's reaped-children
 * counter, so it is counted under 'ended', less what it had used before the first snapshot.
 */
export function treeCpuBetween(before: ProcessFigures[], after: ProcessFigures[]): Map<string, number> {
  const byName = new Map<string, number>();
  const add = (name: string, seconds: number) => byName.set(name, (byName.get(name) ?? 0) + seconds);
  const earlier = new Map(before.map((p) => [p.pid, p]));
  const still = new Set(after.map((p) => p.pid));
  for (const p of after) {
    const was = earlier.get(p.pid);
    add(p.name, p.cpu - (was?.cpu ?? 0));
    add('ended', p.endedChildrenCpu - (was?.endedChildrenCpu ?? 0));
  }
  for (const p of before) if (!still.has(p.pid)) add('ended', -p.cpu - p.endedChildrenCpu);
  return byName;
}

/**
 * Connections the kernel dropped because a listening socket's accept queue was full (TcpExt
 * ListenOverflows, for the whole network namespace): each costs the client a SYN retry of 1 s or more.
 */
export function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('TcpExt:'));
  if (header < 0 || !lines[header + 1]) return 0;
  const names = lines[header]!.split(/\s+/);
  const values = lines[header + 1]!.split(/\s+/);
  return Number(values[names.indexOf('ListenOverflows')] ?? 0);
}
