import type { NowPlaying } from '../../../common/radio';

export interface DisplayedTrack {
  title: string;
  artist: string | null;
  artworkUrl: string | null;
}

/**
 * What the banner shows: while playing, the title the listener is hearing (from the metadata synchronised
 * with the audio), so it changes when the change is heard, not when the server knows it; otherwise the
 * server's current track.
 */
export function displayedTrack(
  nowPlaying: NowPlaying | undefined,
  heardTitle: string | null,
  playing: boolean,
): DisplayedTrack | null {
  const track = nowPlaying?.current_track;
  const fromServer = track
    ? { title: track.title, artist: track.artist || null, artworkUrl: track.artwork_url }
    : null;
  if (!playing || !heardTitle) return fromServer;
  if (track && (heardTitle === track.title || heardTitle === `${track.artist} - ${track.title}`))
    return fromServer;
  const split = heardTitle.indexOf(' - ');
  if (split > 0)
    return { artist: heardTitle.slice(0, split), title: heardTitle.slice(split + 3), artworkUrl: null };
  return { title: heardTitle, artist: null, artworkUrl: null };
}
