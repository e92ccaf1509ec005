import { RECENT_BROADCAST_SECONDS, SERVER_CLIP_SECONDS } from '../../../common/clips.js';

/** A broadcast frame with its stream-clock time (the radio engine's TimedFrame). */
export interface ClipFrame {
  data: Buffer;
  start: number;
  duration: number;
}

/** What clips need from the radio: its recent frames by stream clock, and what is on air. */
export interface ClipAudioSource {
  framesBetween(from: number, to: number): ClipFrame[];
  nowPlaying(): { stream_clock: number; current_track: { title: string; artist: string } };
}

export class ClipUnavailableError extends Error {}

export interface Cut {
  audio: Buffer;
  /** Seconds of audio in the cut. */
  duration: number;
  /** Stream-clock second the cut ends at. */
  end: number;
}

/**
 * The `seconds` of broadcast audio ending at stream-clock `end` (default: the live edge), as whole MP3
 * frames: concatenated frames are themselves a valid MP3 file.
 */
export function cutFrames(
  source: ClipAudioSource,
  seconds: number,
  end?: number,
  minSeconds: number = SERVER_CLIP_SECONDS.min,
): Cut {
  const liveEdge = source.nowPlaying().stream_clock;
  const to = Math.min(end ?? liveEdge, liveEdge);
  const frames = source.framesBetween(to - seconds, to);
  const duration = frames.reduce((sum, f) => sum + f.duration, 0);
  if (frames.length === 0) throw new ClipUnavailableError('That moment is no longer in the recent broadcast');
  // Near the start of the broadcast (or at the far end of the kept minutes) there may be less audio: what
  // there is makes the clip, as long as it is not shorter than the shortest clip.
  if (duration < Math.min(seconds, minSeconds) - 0.5) {
    throw new ClipUnavailableError(`Only ${Math.floor(duration)} s of that broadcast is available`);
  }
  return { audio: Buffer.concat(frames.map((f) => f.data)), duration, end: to };
}

/** How far a range's first kept frame may start after its `from` and still hold that moment (under one frame). */
const RANGE_START_SLACK_SECONDS = 0.1;

/**
 * Exactly the stream-clock seconds [from, to] a listener recorded, as whole MP3 frames. A moment is cut
 * whole or not at all: one whose start has left the recent broadcast would not be the moment recorded.
 */
export function cutRange(source: ClipAudioSource, from: number, to: number): Cut {
  const liveEdge = source.nowPlaying().stream_clock;
  if (from >= liveEdge) throw new ClipUnavailableError('That moment has not been broadcast yet');
  const end = Math.min(to, liveEdge);
  const frames = source.framesBetween(from, end);
  if (frames.length === 0 || frames[0]!.start > from + RANGE_START_SLACK_SECONDS) {
    throw new ClipUnavailableError(
      `That moment is no longer available: the station keeps only the last ${RECENT_BROADCAST_SECONDS / 60} minutes of its broadcast`,
    );
  }
  const duration = frames.reduce((sum, f) => sum + f.duration, 0);
  return { audio: Buffer.concat(frames.map((f) => f.data)), duration, end };
}
