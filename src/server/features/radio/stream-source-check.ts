import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { parseStreamSource } from '../../radio/external-source.js';
import {
  checkSourceAddress,
  RefusedSourceAddress,
  type PinnedAddress,
  type SourceAddressPolicy,
} from './source-address.js';

export type { SourceAddressPolicy } from './source-address.js';

const CHECK_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 5;
const AUDIO_TYPES = /^(audio\/|application\/(ogg|vnd\.apple\.mpegurl|x-mpegurl))/i;

/** Connects to the address the check resolved, never to what a second lookup might say. */
const pinnedLookup =
  (pinned: PinnedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };

/** One GET whose response headers are all that is read; the connection is closed after them. */
function headersOf(url: URL, pinned: PinnedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      lookup: pinnedLookup(pinned),
      signal,
      headers: { 'icy-metadata': '0', accept: 'audio/*, */*' },
    });
    request.on('response', (response) => {
      resolve(response);
      response.destroy();
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Asks the address for its stream before staff save it: each address and every redirect's target is
 * checked against the policy (SourceAddressPolicy) and connected to as resolved. Answers with what went
 * wrong (for the log: staff are told only that the address cannot be used), or undefined when it plays.
 */
export async function streamSourceProblem(
  value: string,
  policy: SourceAddressPolicy,
): Promise<string | undefined> {
  let url = new URL(parseStreamSource(value).streamUrl);
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const pinned = await checkSourceAddress(url, policy);
      const response = await headersOf(url, pinned, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      const type = response.headers['content-type'] ?? '';
      if (status < 200 || status >= 300) return `${url.href} answered ${status}, not a stream`;
      if (!AUDIO_TYPES.test(type)) return `${url.href} answered with ${type || 'no content type'}, not audio`;
      return undefined;
    }
    return `more than ${MAX_REDIRECTS} redirects`;
  } catch (error) {
    if (error instanceof RefusedSourceAddress) return error.message;
    if (signal.aborted) return `${url.href} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`;
    return `${url.href} could not be reached (${(error as Error).message})`;
  }
}
