/** How often a held start looks at what has arrived. */
const HOLD_CHECK_MS = 100;

/** Seconds of audio buffered past the playback position. */
export function secondsBufferedAhead(audio: HTMLMediaElement): number {
  const { buffered, currentTime } = audio;
  for (let i = 0; i < buffered.length; i++) {
    if (buffered.start(i) <= currentTime + 0.1 && currentTime <= buffered.end(i))
      return buffered.end(i) - currentTime;
  }
  return 0;
}

/**
 * Keeps the play head still until `seconds` of audio are buffered past it, then plays at normal speed and
 * calls `onRelease`; the returned function lets go early (a stop). The head is held at rate 0, not paused:
 * the stream library takes a pause for a stop. A new source resets the rate, so it is held again then.
 * Where a browser refuses rate 0 the audio simply starts at once.
 */
export function holdUntilBuffered(
  audio: HTMLMediaElement,
  seconds: number,
  onRelease: () => void,
): () => void {
  const still = () => {
    if (audio.playbackRate !== 0) audio.playbackRate = 0;
  };
  try {
    still();
  } catch {
    onRelease();
    return () => {};
  }
  let held = true;
  const check = () => {
    if (!held) return;
    if (secondsBufferedAhead(audio) < seconds) return still();
    release();
    onRelease();
  };
  const release = () => {
    if (!held) return;
    held = false;
    clearInterval(timer);
    audio.removeEventListener('loadstart', still);
    audio.removeEventListener('playing', check);
    audio.playbackRate = 1;
  };
  audio.addEventListener('loadstart', still);
  // Checked as the element starts too, so a connect burst that already covers the buffer costs no wait.
  audio.addEventListener('playing', check);
  const timer = setInterval(check, HOLD_CHECK_MS);
  return release;
}
