// Owns: the kernel's unsent bytes per TCP connection (Linux /proc/net/tcp), read to find stalled listeners.
// Must not: drop anyone (the Broadcaster and listeners.ts decide); it only reads.
import { readFile } from 'node:fs/promises';

/** A connection's address family, as Node names it: IPv4 connections are in /proc/net/tcp, IPv6 in tcp6. */
export type QueueFamily = 'IPv4' | 'IPv6';

/**
 * Bytes each TCP connection to `localPort` has handed to the kernel that the other end has not taken yet
 * (Linux's tx_queue in /proc/net/tcp and tcp6), by the other end's address and port. A listener that never
 * reads grows this queue up to the kernel's send buffer (megabytes), which Node cannot see. Elsewhere (no
 * /proc) the map is empty and only Node's own backlog bound applies. Open connections only, unless
 * `closing` asks for those being closed too; `families` reads only the tables of those families. Each
 * table read walks the kernel's whole connection table (about 1.7 ms of CPU on a machine with 24 GB, however
 * few connections it holds), so callers read once for all their listeners.
 */
export async function readSendQueues(
  localPort: number,
  options: { closing?: boolean; families?: Iterable<QueueFamily> } = {},
): Promise<Map<string, number>> {
  const queues = new Map<string, number>();
  const families = new Set(options.families ?? ['IPv4', 'IPv6']);
  for (const file of [...families].map((family) =>
    family === 'IPv4' ? '/proc/net/tcp' : '/proc/net/tcp6',
  )) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5) continue;
      const [localHex, localPortHex] = fields[1]!.split(':');
      if (!localHex || parseInt(localPortHex ?? '', 16) !== localPort) continue;
      // 01 is ESTABLISHED; a closing connection still holds its queue until the kernel gives up on it.
      if (fields[3] !== '01' && !options.closing) continue;
      const [remoteHex, remotePortHex] = fields[2]!.split(':');
      const txQueue = parseInt(fields[4]!.split(':')[0]!, 16);
      queues.set(`${addressOf(remoteHex!)}:${parseInt(remotePortHex!, 16)}`, txQueue);
    }
  }
  return queues;
}

/** The kernel's hex form (32-bit words in host byte order, little-endian here) as Node writes addresses. */
function addressOf(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => [6, 4, 2, 0].map((at) => parseInt(word.slice(at, at + 2), 16)));
  if (bytes.length === 4) return bytes.join('.');
  // IPv4 mapped into IPv6 (::ffff:a.b.c.d) is how a dual-stack server sees IPv4 listeners.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return bytes.slice(12).join('.');
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The key readSendQueues uses for a socket Node holds. */
export const sendQueueKey = (remoteAddress: string | undefined, remotePort: number | undefined) =>
  `${(remoteAddress ?? '').replace(/^::ffff:/, '')}:${remotePort ?? 0}`;
