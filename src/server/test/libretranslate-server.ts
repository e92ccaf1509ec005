import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One `/translate` call as the server took it. */
export interface TranslateCall {
  q: string | string[];
  source: string;
  target: string;
  format: string;
  apiKey?: string;
  translatedText?: string | string[];
}

/**
 * A LibreTranslate-compatible service on 127.0.0.1 (a port the kernel picks), answering LibreTranslate's own
 * API: `GET /languages` ([{ code, name, targets }]) and `POST /translate` with q (a text or a list), source,
 * target, format (text or html) and api_key, as JSON or a form; `{ translatedText }` on success, else
 * `{ error }` with LibreTranslate's status and wording (400 for a missing parameter or a language it has no
 * model for, 403 for a wrong key). It translates word by word with `words` (lower-case English to the
 * target's words): a word not in the table comes back as it was, as a machine translator leaves a name.
 * Every call is kept in `calls`.
 */
export async function startLibreTranslate(options: {
  /** Per target language: English word -> its translation. */
  words: Record<string, Record<string, string>>;
  /** When set, calls without it are refused as LibreTranslate's `--api-keys` does. */
  apiKey?: string;
}) {
  const calls: TranslateCall[] = [];
  const names: Record<string, string> = { en: 'English', es: 'Spanish', fr: 'French', de: 'German' };
  const targets = ['en', ...Object.keys(options.words)];
  const translate = (text: string, target: string) => {
    const table = options.words[target]!;
    // Words and what lies between them (spaces, punctuation) kept in order; a capital stays a capital.
    return text.replace(/[\p{L}']+/gu, (word) => {
      const found = table[word.toLowerCase()];
      if (!found) return word;
      return word[0] === word[0]!.toUpperCase() ? found[0]!.toUpperCase() + found.slice(1) : found;
    });
  };
  const answer = (response: http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (request.method === 'GET' && url.pathname === '/languages') {
        return answer(
          response,
          200,
          targets.map((code) => ({
            code,
            name: names[code] ?? code,
            targets: targets.filter((t) => t !== code),
          })),
        );
      }
      if (request.method !== 'POST' || url.pathname !== '/translate') {
        return answer(response, 404, { error: 'Not Found' });
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      let fields: Record<string, unknown>;
      if (/^application\/json/i.test(request.headers['content-type'] ?? '')) {
        try {
          const parsed: unknown = JSON.parse(raw);
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            throw new Error('not an object');
          fields = parsed as Record<string, unknown>;
        } catch {
          return answer(response, 400, { error: 'Invalid JSON format' });
        }
      } else {
        fields = Object.fromEntries(new URLSearchParams(raw));
      }
      const q = fields.q as string | string[] | undefined;
      const source = fields.source as string | undefined;
      const target = fields.target as string | undefined;
      const format = (fields.format as string | undefined) || 'text';
      const apiKey = fields.api_key as string | undefined;
      const call: TranslateCall = {
        q: q ?? '',
        source: source ?? '',
        target: target ?? '',
        format,
        apiKey,
      };
      calls.push(call);
      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        return answer(response, 403, { error: 'Invalid API key' });
      }
      for (const [name, value] of [
        ['q', q],
        ['source', source],
        ['target', target],
      ] as const) {
        if (!value || (Array.isArray(value) && value.length === 0)) {
          return answer(response, 400, { error: `Invalid request: missing ${name} parameter` });
        }
      }
      if (source !== 'en' && source !== 'auto')
        return answer(response, 400, { error: `${source} is not supported` });
      if (!options.words[target!]) return answer(response, 400, { error: `${target} is not supported` });
      if (format !== 'text' && format !== 'html') {
        return answer(response, 400, { error: `${format} format is not supported` });
      }
      call.translatedText = Array.isArray(q) ? q.map((t) => translate(t, target!)) : translate(q!, target!);
      return answer(response, 200, {
        translatedText: call.translatedText,
        ...(source === 'auto' ? { detectedLanguage: { confidence: 90, language: 'en' } } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
