/**
 * One sound at a time on the page: whoever starts playing takes the focus and the one playing before is
 * paused; when the newcomer stops, the one it interrupted is resumed if it can be (the live stream comes
 * back after a sermon, as a radio does). Plain module state, outside React (STYLE.md habit 5).
 */
export interface AudioHolder {
  pause(): void;
  /** Given by holders that should come back once the one that interrupted them stops. */
  resume?(): void;
}

let current: { key: string; holder: AudioHolder } | undefined;
let interrupted: { key: string; holder: AudioHolder } | undefined;

export function takeAudioFocus(key: string, holder: AudioHolder): void {
  if (current?.key === key) {
    current = { key, holder };
    return;
  }
  const previous = current;
  current = { key, holder };
  if (previous) {
    interrupted = previous;
    previous.holder.pause();
  }
}

export function releaseAudioFocus(key: string): void {
  if (current?.key !== key) {
    // Stopped while interrupted: nothing to come back to.
    if (interrupted?.key === key) interrupted = undefined;
    return;
  }
  current = undefined;
  const back = interrupted;
  interrupted = undefined;
  if (back?.holder.resume) {
    current = back;
    back.holder.resume();
  }
}
