// The live player: one AudioPlayer for the page, its state, the banner and what it hears.
export { currentTrackQuery, useCurrentTrack, useStreamUrl } from './api';
export { AudioPlayer, type PlayerState } from './audio-player';
export { PlayerBanner } from './components/player-banner';
export { getPlayer, setPlayer, usePlayerState } from './player-store';
export { isIOS, type EngineFactory } from './stream-engine';
export { streamClockNow, useStreamClock } from './use-stream-clock';
export { useSubtitlesEnabled } from './use-subtitles-enabled';
