import { useCallback, useSyncExternalStore } from 'react';
import {
  SUBTITLE_FONT_SIZES,
  SUBTITLE_POSITIONS,
  SUBTITLE_SETTING_KEYS,
  isSubtitleLanguage,
  type SubtitleFontSize,
  type SubtitlePosition,
} from '../../../common/subtitles';

const listeners = new Set<() => void>();

function readKey(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** One subtitle setting, under its own local-storage key (SPEC.md section 4); a bad stored value reads as unset. */
function usePersisted<T extends string>(key: string, valid: (value: string) => value is T) {
  const read = () => {
    const value = readKey(key);
    return value !== null && valid(value) ? value : null;
  };
  const value = useSyncExternalStore(subscribe, read, () => null);
  const set = useCallback(
    (next: T) => {
      try {
        localStorage.setItem(key, next);
      } catch {
        // Private mode: the choice lasts for this page.
      }
      for (const l of listeners) l();
    },
    [key],
  );
  return [value, set] as const;
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): value is T =>
    (values as readonly string[]).includes(value);

export function useSubtitleSettings() {
  const [language, setLanguage] = usePersisted(SUBTITLE_SETTING_KEYS.language, (v): v is string =>
    isSubtitleLanguage(v),
  );
  const [fontSize, setFontSize] = usePersisted<SubtitleFontSize>(
    SUBTITLE_SETTING_KEYS.fontSize,
    oneOf(SUBTITLE_FONT_SIZES),
  );
  const [position, setPosition] = usePersisted<SubtitlePosition>(
    SUBTITLE_SETTING_KEYS.position,
    oneOf(SUBTITLE_POSITIONS),
  );
  return {
    /** Null when none is saved: the first available language is used. */
    language,
    setLanguage,
    fontSize: fontSize ?? 'medium',
    setFontSize,
    position: position ?? 'bottom',
    setPosition,
  };
}
