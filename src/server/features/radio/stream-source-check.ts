import { parseStreamSource } from '../../radio/external-source.js';

const CHECK_TIMEOUT_MS = 5_000;
const AUDIO_TYPES = /^(audio\/|application\/(ogg|vnd\.apple\.mpegurl|x-mpegurl))/i;

/**
 * Asks the address for its stream before staff save it: answers with the reason it cannot be used, or
 * undefined when it plays. Only the response headers are read; the connection is closed after them.
 */
export async function streamSourceProblem(value: string): Promise<string | undefined> {
  const { streamUrl } = parseStreamSource(value);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CHECK_TIMEOUT_MS);
  try {
    const response = await fetch(streamUrl, { signal: abort.signal, redirect: 'follow' });
    const type = response.headers.get('content-type') ?? '';
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) return `${streamUrl} answered ${response.status}, not a stream`;
    if (!AUDIO_TYPES.test(type)) return `${streamUrl} answered with ${type || 'no content type'}, not audio`;
    return undefined;
  } catch (error) {
    return abort.signal.aborted
      ? `${streamUrl} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`
      : `${streamUrl} could not be reached (${(error as Error).cause ? String((error as Error & { cause: Error }).cause.message) : (error as Error).message})`;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
