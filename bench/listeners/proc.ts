// Process figures from /proc (Linux): CPU time and resident memory of a server under test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds the process has used so far (fields 14 and 15 of /proc/PID/stat). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: fields are counted after its closing ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident set size in bytes (VmRSS of /proc/PID/status). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
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
