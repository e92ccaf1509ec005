import { isIPv6 } from 'node:net';

/**
 * One key per attacker-sized network: an IPv4 address, or the /64 an IPv6 host gets
 * (one host can use every address in it).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const full = address.includes('::') ? [...headParts, ...Array(missing).fill('0'), ...tailParts] : headParts;
  return `${full
    .slice(0, 4)
    .map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
