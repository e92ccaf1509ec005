import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AudioPlayer } from './audio-player';
import { getPlayer } from './player-store';

/**
 * The stream-clock second the listener is hearing now (DESIGN.md section 5), re-read every `everyMs`
 * while playing; null while nothing plays. Subtitles pick their line with it.
 */
export function useStreamClock(everyMs = 250, player: AudioPlayer = getPlayer()): number | null {
  const clock = player.clock;
  const version = useSyncExternalStore(clock.subscribe, clock.getVersion, clock.getVersion);
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    setNow(clock.now());
    if (clock.now() === null) return;
    const id = setInterval(() => setNow(clock.now()), everyMs);
    return () => clearInterval(id);
  }, [clock, version, everyMs]);
  return now;
}

/** For reading the heard second at one moment (e.g. when a clip is asked for), outside React. */
export function streamClockNow(): number | null {
  return getPlayer().clock.now();
}
