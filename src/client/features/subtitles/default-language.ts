import { STATION_LANGUAGE } from '../../../common/subtitles';

const primary = (tag: string) => tag.toLowerCase().split('-')[0]!;

/**
 * The language a listener who has saved none reads: the first of the browser's languages that has lines
 * (its exact code, else the same language under another region or script), else the station's own, else
 * the first that has lines. Null while no language has lines.
 */
export function defaultSubtitleLanguage(available: readonly string[], browser: readonly string[]) {
  for (const tag of browser) {
    const exact = available.find((code) => code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const same = available.filter((code) => primary(code) === primary(tag));
    const found = same.find((code) => !code.includes('-')) ?? same[0];
    if (found) return found;
  }
  if (available.includes(STATION_LANGUAGE.code)) return STATION_LANGUAGE.code;
  return available[0] ?? null;
}

/** The browser's languages in the listener's order of preference. */
export const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined'
    ? []
    : navigator.languages?.length
      ? navigator.languages
      : [navigator.language].filter(Boolean);
