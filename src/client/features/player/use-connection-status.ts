import { useEffect, useState } from 'react';
import {
  CONNECTION_PROBE_INTERVAL_MS,
  connectionStatusFor,
  NETWORK_CHECK_AFTER_ONLINE_MS,
  NETWORK_CHECK_INTERVAL_MS,
  type LineQuality,
} from '../../../common/player';
import type { AudioPlayer } from './audio-player';
import { NetworkQualityMonitor, probeStreamUrl } from './network-quality';
import { usePlayerState } from './player-store';

/**
 * SPEC.md section 4's connection indicator, while the browser is online (offline is shown by the browser's
 * own state, lib/online-mark.ts): probed on the online event and every 30 s, under 200 ms green
 * 'High Speed', slower or failed yellow 'Slow Connection'. A probe every 30 s alone would say 'High Speed'
 * well into an outage, so the player's audio stalling (the stream ended, failed or ran dry) also means
 * 'Slow Connection' at once, and its playing again probes at once to come back.
 */
export function useConnectionStatus(
  player: AudioPlayer,
  probe: () => Promise<number | null> = () => probeStreamUrl(),
): LineQuality {
  const { stalled } = usePlayerState(player);
  // 'slow' until the first probe: the page may have been served (and prerendered) before it knew.
  const [probed, setProbed] = useState<LineQuality>('slow');
  useEffect(() => {
    let alive = true;
    // Only the latest probe counts: one sent before a stall must not answer for the line after it.
    let latest = 0;
    const run = async () => {
      if (isOffline()) return;
      const id = ++latest;
      const ms = await probe();
      if (alive && id === latest && !isOffline()) setProbed(connectionStatusFor(ms));
    };
    // A stall drops the last good figure; playing again earns 'High Speed' back only through a probe.
    let wasStalled = player.getState().stalled;
    const unsubscribe = player.subscribe(() => {
      const { stalled: now } = player.getState();
      if (now === wasStalled) return;
      wasStalled = now;
      if (now) setProbed('slow');
      else void run();
    });
    const online = () => void run();
    window.addEventListener('online', online);
    void run();
    const id = setInterval(run, CONNECTION_PROBE_INTERVAL_MS);
    return () => {
      alive = false;
      unsubscribe();
      window.removeEventListener('online', online);
      clearInterval(id);
    };
    // The probe is a default argument (a new function each render); the player is the page's one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [player]);
  return stalled ? 'slow' : probed;
}

/** The network-quality measurement feeding the player: about every 30 s, and again 1 s after coming online. */
export function useNetworkQuality(
  player: AudioPlayer,
  monitor: NetworkQualityMonitor = new NetworkQualityMonitor(),
) {
  useEffect(() => {
    let alive = true;
    const check = async () => {
      const measure = await monitor.check();
      if (alive && measure) player.setNetworkQuality(measure);
    };
    let onlineTimer: ReturnType<typeof setTimeout> | undefined;
    const online = () => {
      clearTimeout(onlineTimer);
      onlineTimer = setTimeout(check, NETWORK_CHECK_AFTER_ONLINE_MS);
    };
    window.addEventListener('online', online);
    void check();
    const id = setInterval(check, NETWORK_CHECK_INTERVAL_MS);
    return () => {
      alive = false;
      clearInterval(id);
      clearTimeout(onlineTimer);
      window.removeEventListener('online', online);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [player]);
}

function isOffline(): boolean {
  return navigator.onLine === false;
}
