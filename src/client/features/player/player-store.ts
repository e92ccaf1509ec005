import { useSyncExternalStore } from 'react';
import { AudioPlayer, type PlayerState } from './audio-player';

let shared: AudioPlayer | undefined;

/** The page's one audio player (created on first use, in the browser only). */
export function getPlayer(): AudioPlayer {
  if (!shared) {
    // In the document (not a detached Audio()), so tools and extensions can find what is playing.
    const audio = document.createElement('audio');
    audio.hidden = true;
    audio.dataset.stationPlayer = '';
    document.body.appendChild(audio);
    shared = new AudioPlayer({ audio });
  }
  return shared;
}

/** Tests swap in a player built on a fake engine; the build's prerender one that never plays. */
export function setPlayer(player: AudioPlayer | undefined): void {
  shared = player;
}

export function usePlayerState(player: AudioPlayer = getPlayer()): PlayerState {
  // A section hydrated after play was pressed must first match the page as served (stopped).
  return useSyncExternalStore(player.subscribe, player.getState, () => player.initialState);
}
