import { useEffect, useState } from 'react';
import { AUTOPLAY_HINT_MS } from '../../../common/player';

/** When a stream URL is known and the player is not playing, the autoplay hint shows for 5 s. */
export function useAutoplayHint(streamUrlKnown: boolean, playing: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!streamUrlKnown || playing) {
      setShown(false);
      return;
    }
    setShown(true);
    const id = setTimeout(() => setShown(false), AUTOPLAY_HINT_MS);
    return () => clearTimeout(id);
  }, [streamUrlKnown, playing]);
  return shown;
}
