import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
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

/** What a request sends besides its headers: a GET sends nothing, a POST its body. */
interface Outgoing {
  method: 'GET' | 'POST';
  body?: string | Buffer;
}

/** One request to the pinned address; the answer's body is the caller's to read or destroy. */
function requestPinned(
  url: URL,
  pinned: PinnedAddress,
  signal: AbortSignal,
  headers: Record<string, string>,
  outgoing: Outgoing = { method: 'GET' },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: outgoing.method,
      lookup: pinnedLookup(pinned),
      signal,
      headers,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(outgoing.body);
  });
}

class TooManyRedirects extends Error {}

/**
 * A GET to a station elsewhere as the Station tab allows it: the address and every redirect's target are
 * checked against the policy (SourceAddressPolicy) and connected to as resolved, never as a second lookup
 * might say. Resolves with the last answer and its address; its body is the caller's to read or destroy.
 * Throws RefusedSourceAddress for an address the policy refuses. A POST is checked the same way and its
 * redirects are not followed (its answer is the redirect).
 */
async function checkedGet(
  url: URL,
  policy: SourceAddressPolicy,
  signal: AbortSignal,
  headers: Record<string, string>,
  outgoing: Outgoing = { method: 'GET' },
): Promise<{ url: URL; response: IncomingMessage }> {
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const pinned = await checkSourceAddress(url, policy);
    const response = await requestPinned(url, pinned, signal, headers, outgoing);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (outgoing.method !== 'GET' || !(status >= 300 && status < 400 && location)) return { url, response };
    response.destroy();
    url = new URL(location, url);
  }
  throw new TooManyRedirects(`more than ${MAX_REDIRECTS} redirects`);
}

/**
 * `fetch` through `checkedGet`, with the policy read at each call: a saved source's status is asked for the
 * way its address was checked when it was saved, so a name that later resolves to a private address (or the
 * station's own) is refused then too. Notifications POST through it the same way (a body and `method: 'POST'`).
 */
export const checkedFetch =
  (policy: () => Promise<SourceAddressPolicy>) =>
  async (
    url: string,
    init: { signal: AbortSignal; headers: Record<string, string> } & Partial<Outgoing>,
  ): Promise<Response> => {
    try {
      const outgoing: Outgoing = { method: init.method ?? 'GET', body: init.body };
      const { response } = await checkedGet(
        new URL(url),
        await policy(),
        init.signal,
        init.headers,
        outgoing,
      );
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers))
        for (const one of [value ?? []].flat()) headers.append(name, one);
      const status = response.statusCode ?? 0;
      // These answers carry no body, and a Response refuses one for them.
      if ([204, 205, 304].includes(status)) {
        response.destroy();
        return new Response(null, { status, headers });
      }
      return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, { status, headers });
    } catch (error) {
      throw init.signal.aborted ? init.signal.reason : error;
    }
  };

/**
 * Asks the address for its stream before staff save it, through `checkedGet`. Answers with what went wrong
 * (for the log: staff are told only that the address cannot be used), or undefined when it plays.
 */
export async function streamSourceProblem(
  value: string,
  policy: SourceAddressPolicy,
): Promise<string | undefined> {
  const url = new URL(parseStreamSource(value).streamUrl);
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    const answer = await checkedGet(url, policy, signal, { 'icy-metadata': '0', accept: 'audio/*, */*' });
    // The headers are all that is read.
    answer.response.destroy();
    const status = answer.response.statusCode ?? 0;
    const type = answer.response.headers['content-type'] ?? '';
    if (status < 200 || status >= 300) return `${answer.url.href} answered ${status}, not a stream`;
    if (!AUDIO_TYPES.test(type))
      return `${answer.url.href} answered with ${type || 'no content type'}, not audio`;
    return undefined;
  } catch (error) {
    if (error instanceof RefusedSourceAddress || error instanceof TooManyRedirects) return error.message;
    if (signal.aborted) return `${url.href} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`;
    return `${url.href} could not be reached (${(error as Error).message})`;
  }
}
