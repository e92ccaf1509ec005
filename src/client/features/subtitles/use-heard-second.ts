import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { currentTrackQuery, usePlayerState, useStreamClock } from '../player';

/**
 * The stream-clock second the listener hears (DESIGN.md section 5), from the metadata synchronised with
 * playback, so each listener gets the line for their own buffer. An external station sends no stream
 * clock: then the station's clock at arrival stands in (docs/decisions/012-subtitles-without-a-stream-clock.md).
 */
export function useHeardSecond(): number | null {
  const heard = useStreamClock(250);
  const { playing } = usePlayerState();
  const fallback = playing && heard === null;
  // Read what the banner's polling and the socket keep fresh; this hook never fetches by itself.
  const { data: nowPlaying, dataUpdatedAt } = useQuery({ ...currentTrackQuery(), enabled: false });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!fallback) return;
    const id = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(id);
  }, [fallback]);
  if (heard !== null) return heard;
  if (!fallback || !nowPlaying) return null;
  return nowPlaying.stream_clock + Math.max(0, now - dataUpdatedAt) / 1000;
}
