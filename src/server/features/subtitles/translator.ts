/** Translates caption text into a language the captioner did not supply. */
export interface Translator {
  /** Languages it is asked to fill in. */
  readonly languages: readonly string[];
  /** The translation, or null when the service cannot give one in time. Never throws. */
  translate(text: string, from: string, to: string): Promise<string | null>;
}

export interface LibreTranslateOptions {
  url: string;
  apiKey?: string;
  timeoutMs: number;
  languages: readonly string[];
}

/**
 * A LibreTranslate-compatible service (`POST {url}/translate` with q, source, target, format): each
 * call has its own deadline, so a slow or absent service only costs the languages it would have filled.
 */
export function libreTranslate(options: LibreTranslateOptions): Translator {
  const endpoint = `${options.url.replace(/\/+$/, '')}/translate`;
  return {
    languages: options.languages,
    async translate(text, from, to) {
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            q: text,
            source: from.split('-')[0],
            target: to.split('-')[0],
            format: 'text',
            ...(options.apiKey ? { api_key: options.apiKey } : {}),
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) return null;
        const body = (await response.json()) as { translatedText?: unknown };
        const translated = typeof body.translatedText === 'string' ? body.translatedText.trim() : '';
        return translated || null;
      } catch {
        return null;
      }
    },
  };
}
