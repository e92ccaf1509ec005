import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** What a stream source address may be, decided per save. */
export interface SourceAddressPolicy {
  /** The Station tab's 'allow a private network source': an Icecast on the church's own network. */
  allowPrivateNetwork: boolean;
  /** The station's own addresses as people reach it: PUBLIC_URL and the one staff use right now. */
  ownOrigins: string[];
  /** The ports the station itself listens on. */
  ownPorts: number[];
}

/** An address the check refuses; `detail` is for the log only, never for the answer. */
export class RefusedSourceAddress extends Error {}

/** Ranges allowed only when staff allow a private network; everything else but public unicast is refused. */
const PRIVATE_RANGES = new Set(['private', 'loopback', 'linkLocal', 'uniqueLocal', 'carrierGradeNat']);
/** Cloud metadata services: never a stream, whatever the setting. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2:0:0:0:0:0:254']);

/** The host as one spelling: no brackets, no trailing dots, lower case (the URL parser has read numbers). */
export const plainHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
export const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address the host stands for (an address stands for itself), each as IPv4 when it is one mapped. */
async function addressesOf(
  host: string,
): Promise<ipaddr.IPv4[] | ipaddr.IPv6[] | (ipaddr.IPv4 | ipaddr.IPv6)[]> {
  if (ipaddr.isValid(host)) return [ipaddr.process(host)];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => ipaddr.process(entry.address));
}

/** The machine's own addresses: every interface's, and whatever the station's own names resolve to. */
async function ownAddresses(policy: SourceAddressPolicy): Promise<Set<string>> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) {
      const address = entry.address.split('%')[0]!;
      if (ipaddr.isValid(address)) own.add(ipaddr.process(address).toNormalizedString());
    }
  for (const origin of policy.ownOrigins) {
    const found = await addressesOf(plainHost(new URL(origin))).catch(() => []);
    for (const address of found) own.add(address.toNormalizedString());
  }
  return own;
}

/**
 * Decides whether one address (a first request or a redirect's target) may be asked, and returns the
 * resolved address the connection must go to: resolved once and pinned, so a name cannot answer the
 * check with one address and the connection with another.
 */
export async function checkSourceAddress(url: URL, policy: SourceAddressPolicy): Promise<PinnedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RefusedSourceAddress(`${url.href}: not http(s)`);
  if (url.username || url.password) throw new RefusedSourceAddress(`${url.href}: credentials in the address`);
  const host = plainHost(url);
  const port = portOf(url);
  const ownPorts = new Set([
    ...policy.ownPorts,
    ...policy.ownOrigins.map((origin) => portOf(new URL(origin))),
  ]);
  for (const origin of policy.ownOrigins) {
    const own = new URL(origin);
    if (plainHost(own) === host && portOf(own) === port)
      throw new RefusedSourceAddress(`${url.href}: the station's own address`);
  }
  const addresses = await addressesOf(host).catch((error: unknown) => {
    throw new RefusedSourceAddress(`${url.href}: ${host} does not resolve (${String(error)})`);
  });
  if (addresses.length === 0) throw new RefusedSourceAddress(`${url.href}: ${host} has no address`);
  const mine = await ownAddresses(policy);
  for (const address of addresses) {
    const normal = address.toNormalizedString();
    const range = address.range();
    if (range === 'unspecified' || ((range === 'loopback' || mine.has(normal)) && ownPorts.has(port)))
      throw new RefusedSourceAddress(`${url.href}: ${normal} port ${port} is the station itself`);
    if (METADATA.has(normal)) throw new RefusedSourceAddress(`${url.href}: ${normal} is a metadata service`);
    if (range === 'unicast') continue;
    if (!PRIVATE_RANGES.has(range) || !policy.allowPrivateNetwork)
      throw new RefusedSourceAddress(`${url.href}: ${normal} is in the ${range} range`);
  }
  const first = addresses[0]!;
  return { address: first.toString(), family: first.kind() === 'ipv4' ? 4 : 6 };
}
