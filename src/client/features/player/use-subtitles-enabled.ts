import { useCallback, useSyncExternalStore } from 'react';
import { SUBTITLES_ENABLED_KEY } from '../../../common/player';

const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(SUBTITLES_ENABLED_KEY) === 'true';
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === SUBTITLES_ENABLED_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function setSubtitlesEnabled(enabled: boolean): void {
  try {
    localStorage.setItem(SUBTITLES_ENABLED_KEY, String(enabled));
  } catch {
    // Private mode: the flag lives for this page only.
  }
  for (const l of listeners) l();
}

/** The banner's subtitles toggle, persisted in local storage; the subtitles feature reads the same flag. */
export function useSubtitlesEnabled(): [boolean, (enabled: boolean) => void] {
  const enabled = useSyncExternalStore(subscribe, read, () => false);
  return [enabled, useCallback((value: boolean) => setSubtitlesEnabled(value), [])];
}
