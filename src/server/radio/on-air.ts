// Owns: what the engine's parts share of the air: staff events (AirEvent), OnAir, the master ceiling, levels.
// Must not: hold state or import the engine's parts (they all import it; it stays underneath them).
import type { FastifyBaseLogger } from 'fastify';
import type { AudioSettings } from '../../common/audio-settings.js';
import type { Track } from '../../common/radio.js';
import type { AutoDj } from './autodj.js';

/** What happened on the air that staff should hear of (the notifications feature sends it on). */
export type AirEvent =
  /** `clock`: the stream-clock second at which the live source's audio starts (or stops) airing. */
  | { type: 'live_on_air'; name: string; clock: number }
  | { type: 'live_off_air'; name: string; clock: number }
  /** `external`: a relayed station elsewhere, `title` its address. */
  | { type: 'dead_air'; source: 'live' | 'autodj' | 'external'; seconds: number; title: string }
  | { type: 'dead_air_ended'; source: 'live' | 'external'; name: string }
  | { type: 'source_failed'; source: string; reason: string };

/** What the sources on the switch (live input, a relayed station elsewhere, the rotation) ask of the air. */
export interface OnAir {
  /** The Station tab's audio settings as last read. */
  settings(): AudioSettings;
  log?: FastifyBaseLogger;
  /** Tells staff (AirEvent listeners). */
  emit(event: AirEvent): void;
  /** What plays from stream-clock second `from` (default: the second broadcast now). */
  setTrack(track: Track, from?: number): void;
  track(): Track;
  /** The stream-clock second broadcast now (the main mount's). */
  clock(): number;
  /** Wall time (epoch ms) at which stream-clock second `clock` is on the air. */
  wallAt(clock: number): number;
  stationName(): string;
  autodj: Pick<AutoDj, 'announce' | 'read' | 'skip'>;
  /** A source's gap in audio shorter than `gapMs` is waited out; longer is silence; past `handBackMs` the AutoDJ plays. */
  gapMs: number;
  handBackMs: number;
}

/** A live source (or a relayed station) counts as having sound again after this long above the silence level. */
export const SOUND_BACK_SECONDS = 0.5;

/** The true-peak target is kept with this much room under it: the limiter sees samples, MP3 adds overshoot. */
const TRUE_PEAK_MARGIN_DB = 1.5;

/** The master limiter's ceiling (linear sample peak) for the true-peak target. */
export function masterLimit(settings: AudioSettings): number {
  return 10 ** ((settings.true_peak_dbtp - TRUE_PEAK_MARGIN_DB) / 20);
}

/** Stream-clock seconds as now playing shows them (hundredths). */
export const roundClock = (seconds: number) => Math.round(seconds * 100) / 100;

/** RMS level of `length` samples from `from`, in dBFS (−Infinity for digital silence). */
export function levelDbfs(samples: Float32Array, from: number, length: number): number {
  let sum = 0;
  for (let i = from; i < from + length; i++) sum += samples[i]! * samples[i]!;
  return 10 * Math.log10(sum / length);
}
