import { artworkFor, MEDIA_SESSION_ALBUM } from '../../../common/player';

export interface MediaSessionTrack {
  title?: string | null;
  artist?: string | null;
  artworkUrl?: string | null;
}

type Handlers = { play: () => void; pause: () => void };

/**
 * SPEC.md section 4: lock-screen and notification metadata (title default '{station} Live', artist
 * default the station name, album 'Live Christian Broadcasting', the logo's artwork at each of its real sizes 96..1024); only play and pause
 * are handled, seeking and track skipping are disabled.
 */
export function updateMediaSession(
  track: MediaSessionTrack,
  stationName: string,
  handlers: Handlers,
  session: MediaSession | undefined = globalThis.navigator?.mediaSession,
): void {
  if (!session || typeof MediaMetadata === 'undefined') return;
  session.metadata = new MediaMetadata({
    title: track.title || `${stationName} Live`,
    artist: track.artist || stationName,
    album: MEDIA_SESSION_ALBUM,
    artwork: artworkFor(track.artworkUrl, absolute),
  });
  setHandler(session, 'play', handlers.play);
  setHandler(session, 'pause', handlers.pause);
  for (const action of ['seekbackward', 'seekforward', 'seekto', 'previoustrack', 'nexttrack'] as const)
    setHandler(session, action, null);
}

function setHandler(session: MediaSession, action: MediaSessionAction, handler: (() => void) | null) {
  try {
    session.setActionHandler(action, handler);
  } catch {
    // Browsers throw for actions they do not know.
  }
}

function absolute(url: string): string {
  try {
    return new URL(url, globalThis.location?.href).href;
  } catch {
    return url;
  }
}
