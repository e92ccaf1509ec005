// Owns: which source fills each frame: the live input, else a station elsewhere, else the AutoDJ (fallback).
// Must not: pace the clock, encode or reach listeners; it mixes one frame when the stream clock asks.
import type { LiveInput, LiveSession } from './live-input.js';
import { LiveOnAir } from './live-on-air.js';
import { levelDbfs, type OnAir } from './on-air.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS } from './pcm.js';
import { RelayOnAir, type RelayTiming } from './relay-on-air.js';

/** Samples (both channels) of one slot in the mix. */
const SLOT_SAMPLES = FRAME_SAMPLES * CHANNELS;

/**
 * The switch: each frame comes from the live source when it is on air, else a relayed station elsewhere once
 * it has audio, else the AutoDJ (its schedule, or the fallback when the schedule has nothing). A source under
 * the silence level for the silence time is dead air: the one under it covers, and staff are told.
 */
export class SourceSwitch {
  readonly live: LiveOnAir;
  readonly relay: RelayOnAir;
  /** Seconds the source on air has been under the silence level: one count for the live source and the rotation. */
  private readonly quiet = { seconds: 0 };

  constructor(
    private readonly air: OnAir,
    input: LiveInput,
    relayTiming: RelayTiming | undefined,
  ) {
    this.relay = new RelayOnAir(air, relayTiming);
    this.live = new LiveOnAir(air, input, this.relay, this.quiet);
  }

  /** Live, or a relayed station elsewhere on air: now playing's `is_live`. */
  get isLive(): boolean {
    return this.live.isLive || this.relay.onAir;
  }

  /**
   * One frame's audio into `out` at sample frame `at`, for stream-clock second `clock`. False while a live
   * encoder (or the relayed station) lags briefly: the stream clock waits for it; a longer gap is silence.
   */
  mix(out: Float32Array, at: number, clock: number, now: number): boolean {
    return (
      this.live.mix(out, at, clock, now) ??
      this.relay.mix(out, at, clock, now) ??
      this.rotation(out, at, clock)
    );
  }

  /** An encoder's metadata update for `session`. */
  liveMetadata(session: LiveSession): void {
    this.live.metadata(session);
  }

  /** One frame of the AutoDJ; an item silent for the silence time is dead air, and the next one plays. */
  private rotation(out: Float32Array, at: number, clock: number): boolean {
    this.air.autodj.read(out, at, FRAME_SAMPLES, clock);
    if (this.live.dead) return true;
    const settings = this.air.settings();
    const quiet = levelDbfs(out, at * CHANNELS, SLOT_SAMPLES) < settings.silence_threshold_dbfs;
    this.quiet.seconds = quiet ? this.quiet.seconds + FRAME_SECONDS : 0;
    if (this.quiet.seconds >= settings.silence_seconds) {
      const title = this.air.track().title;
      this.air.log?.warn({ title }, 'dead air: the item on air is silent; the next one plays');
      this.air.emit({ type: 'dead_air', source: 'autodj', seconds: Math.round(this.quiet.seconds), title });
      this.quiet.seconds = 0;
      this.air.autodj.skip();
    }
    return true;
  }
}
