// Owns: NowPlayingSource, what the radio API and /ws read now playing and the stream address through.
// Must not: hold state; the engine, a web instance's BroadcasterFeed or a station elsewhere implement it.
import type { NowPlaying } from '../../common/radio.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What now playing and the stream address come from: the engine, or on a web instance the broadcaster's. */
    nowPlaying: NowPlayingSource;
  }
}

/**
 * Where the station's now-playing and stream address come from: the engine (AutoDJ, live input and a
 * relayed station elsewhere, broadcast from this server), or on a web instance the broadcaster's heartbeats
 * (BroadcasterFeed). The radio API and the /ws push only talk to this interface, so either can stand behind
 * them. A station elsewhere's own status (ExternalStationSource) has the same shape.
 */
export interface NowPlayingSource {
  /** What is on air now; cheap (served from memory), callers may poll it freely. */
  nowPlaying(): NowPlaying;
  /** Public address of the MP3 stream; `origin` is the request's own origin (e.g. http://host:5000). */
  streamUrl(origin: string): string;
  /** Calls `listener` whenever now playing changes (track, live on/off, listener count); returns unsubscribe. */
  onChange(listener: (nowPlaying: NowPlaying) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a listener sees before anything is known about the track on air. */
export function unknownTrack(stationName: string): NowPlaying['current_track'] {
  return { title: `${stationName} Live`, artist: stationName, artwork_url: null, started_at: 0 };
}
