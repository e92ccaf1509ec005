import { useMemo, useSyncExternalStore } from 'react';
import type { AudioPlayer } from './audio-player';
import { getPlayer } from './player-store';
import type { StreamClockStore } from './stream-clock';

/** Samples the clock on each heard block and every `everyMs`, so React reads a stable value between samples. */
function sampler(clock: StreamClockStore, everyMs: number) {
  let sample = clock.now();
  return {
    subscribe(onChange: () => void) {
      const take = () => {
        sample = clock.now();
        onChange();
      };
      const unsubscribe = clock.subscribe(take);
      const id = setInterval(take, everyMs);
      return () => {
        unsubscribe();
        clearInterval(id);
      };
    },
    read: () => sample,
  };
}

/**
 * The stream-clock second the listener is hearing now (DESIGN.md section 5), re-read every `everyMs`
 * while playing; null while nothing plays. Subtitles pick their line with it.
 */
export function useStreamClock(everyMs = 250, player: AudioPlayer = getPlayer()): number | null {
  const clock = player.clock;
  const store = useMemo(() => sampler(clock, everyMs), [clock, everyMs]);
  return useSyncExternalStore(store.subscribe, store.read, () => null); // served: nothing playing
}

/** For reading the heard second at one moment (e.g. when a clip is asked for), outside React. */
export function streamClockNow(): number | null {
  return getPlayer().clock.now();
}
