import { useEffect, useState } from 'react';
import { AUTOPLAY_HINT_MS } from '../../../common/player';

/** When a stream URL is known and the player is not playing, the autoplay hint shows for 5 s. */
export function useAutoplayHint(streamUrlKnown: boolean, playing: boolean): boolean {
  const applies = streamUrlKnown && !playing;
  // Each time the hint starts to apply, it shows afresh for 5 s.
  const [episode, setEpisode] = useState(applies);
  const [expired, setExpired] = useState(false);
  if (episode !== applies) {
    setEpisode(applies);
    setExpired(false);
  }
  useEffect(() => {
    if (!applies) return;
    const id = setTimeout(() => setExpired(true), AUTOPLAY_HINT_MS);
    return () => clearTimeout(id);
  }, [applies]);
  return applies && !expired;
}
