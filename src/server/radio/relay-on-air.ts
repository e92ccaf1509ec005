// Owns: a station elsewhere relayed in place of the AutoDJ: its pull, preroll, gaps, dead air and title.
// Must not: touch the live source, the mounts or the encoder; the switch decides what airs over it.
import type { Track } from '../../common/radio.js';
import type { Underneath } from './live-on-air.js';
import { levelDbfs, masterLimit, roundClock, SOUND_BACK_SECONDS, type OnAir } from './on-air.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from './pcm.js';
import { UpstreamRelay, type UpstreamRelayOptions, type UpstreamStation } from './upstream-relay.js';

/** A relayed station's decoded audio kept ready (network jitter), and gathered before it takes the air. */
const RELAY_AHEAD_SECONDS = 2;
const RELAY_PREROLL_SECONDS = 1;
/** Samples (both channels) of one slot in the mix. */
const SLOT_SAMPLES = FRAME_SAMPLES * CHANNELS;

/** How a relayed station elsewhere is reconnected (tests shorten the waits). */
export type RelayTiming = Pick<
  UpstreamRelayOptions,
  'retryMs' | 'maxRetryMs' | 'connectTimeoutMs' | 'stallMs'
>;

/**
 * The Station tab's station elsewhere, under a live source and over the AutoDJ. Its stream is pulled and
 * decoded through the live chain; it takes the air with its first second of audio, at once (no crossfade),
 * with its title from its status. The AutoDJ covers while it fails or is silent, until it is back.
 */
export class RelayOnAir implements Underneath {
  private upstream: UpstreamRelay | null = null;
  private upstreamOff: (() => void) | null = null;
  /** Its audio is what airs (no live source over it). */
  onAir = false;
  /** Replaced by the rotation for its silence until it has sound again, as a live source is. */
  private dead = false;
  private quiet = 0;
  private sound = 0;
  private starvedSince: number | null = null;
  /** Staff were told it failed or fell silent; they are told again when it is back on air. */
  private failing = false;
  private readonly frame = new Float32Array(SLOT_SAMPLES);

  constructor(
    private readonly air: OnAir,
    private readonly timing: RelayTiming | undefined,
  ) {}

  /** The station elsewhere relayed now, or null. */
  get station(): UpstreamStation | null {
    return this.upstream?.station ?? null;
  }

  /** Its pull (and decoder), while a station is relayed: supervised every tick. */
  get relay(): UpstreamRelay | null {
    return this.upstream;
  }

  /**
   * Relays `station` from now (null: none, the AutoDJ again); the one before stops. `producedClock` is the
   * stream-clock second mixed up to, where the AutoDJ is announced again if the station before was on air.
   */
  async set(station: UpstreamStation | null, producedClock: number, running: boolean): Promise<void> {
    const previous = this.upstream;
    this.upstreamOff?.();
    this.upstreamOff = null;
    if (this.onAir) {
      this.onAir = false;
      this.air.autodj.announce(producedClock);
    }
    this.dead = this.failing = false;
    this.quiet = 0;
    this.starvedSince = null;
    this.upstream = station
      ? new UpstreamRelay(station, {
          ...this.timing,
          level: () => {
            const settings = this.air.settings();
            return { targetLufs: settings.loudness_target_lufs, limit: masterLimit(settings) };
          },
          aheadSeconds: RELAY_AHEAD_SECONDS,
          log: (level, message) => this.air.log?.[level](message),
          onFailure: (reason) => this.failed(reason),
        })
      : null;
    if (station) this.upstreamOff = station.onChange(() => this.titleChanged());
    if (running) this.upstream?.start();
    await previous?.stop();
  }

  start(): void {
    this.upstream?.start();
  }

  async stop(): Promise<void> {
    await this.upstream?.stop();
  }

  keepUp(frames: number): void {
    this.upstream?.skip(frames);
  }

  giveWay(): void {
    this.onAir = false;
  }

  /**
   * One frame of the relayed station once it has audio: true when mixed into `out` (or a gap past `gapMs` is
   * silence), false while a short gap is waited out, null when the rotation plays. Silent past the hand-back
   * time, disconnected, or under the silence level for the silence time, it gives the air to the AutoDJ until
   * it has sound again.
   */
  mix(out: Float32Array, at: number, clock: number, now: number): boolean | null {
    const relay = this.upstream;
    if (!relay) return null;
    const wanted = this.onAir || this.dead ? FRAME_SAMPLES : Math.round(RELAY_PREROLL_SECONDS * SAMPLE_RATE);
    if (relay.available >= wanted) {
      this.starvedSince = null;
      this.frame.fill(0);
      relay.mixInto(this.frame, 0, FRAME_SAMPLES);
      if (this.heard(this.frame, clock)) {
        if (!this.onAir) this.on(clock);
        for (let i = 0; i < SLOT_SAMPLES; i++) out[at * CHANNELS + i]! += this.frame[i]!;
        return true;
      }
      return null;
    }
    if (this.onAir && relay.streaming) {
      this.starvedSince ??= now;
      const waited = now - this.starvedSince;
      // A short gap is waited out; a longer one is silence, so players hear no gap and the clock keeps time.
      if (waited < this.air.handBackMs) return waited >= this.air.gapMs;
      this.off(clock, 'it stopped sending audio');
    } else if (this.onAir) this.off(clock, null); // its connection ended: the relay says why
    return null;
  }

  /** Whether a relayed frame airs: as for a live source, not while dead air lasts, until it has sound again. */
  private heard(frame: Float32Array, clock: number): boolean {
    const settings = this.air.settings();
    const quiet = levelDbfs(frame, 0, SLOT_SAMPLES) < settings.silence_threshold_dbfs;
    if (this.dead) {
      this.sound = quiet ? 0 : this.sound + FRAME_SECONDS;
      if (this.sound < SOUND_BACK_SECONDS) return false;
      this.dead = false;
      this.quiet = 0;
      return true;
    }
    this.quiet = quiet ? this.quiet + FRAME_SECONDS : 0;
    if (this.quiet < settings.silence_seconds) return true;
    this.dead = true;
    this.sound = 0;
    const address = this.upstream!.station.address;
    this.air.log?.warn(
      { seconds: this.quiet, address },
      'dead air: the station elsewhere is silent; the rotation covers it',
    );
    if (this.onAir) {
      this.onAir = false;
      this.air.autodj.announce(clock);
    }
    if (!this.failing) {
      this.failing = true;
      this.air.emit({
        type: 'dead_air',
        source: 'external',
        seconds: Math.round(this.quiet),
        title: address,
      });
    }
    return false;
  }

  /** The relayed station takes the air: its title from its status, on every mount from this second. */
  private on(clock: number): void {
    this.onAir = true;
    this.starvedSince = null;
    const address = this.upstream!.station.address;
    this.air.log?.info({ address }, 'station elsewhere on air');
    if (this.failing) {
      this.failing = false;
      this.air.emit({ type: 'dead_air_ended', source: 'external', name: address });
    }
    this.air.setTrack(this.track(clock), clock);
  }

  /** The relayed station gives the air to the AutoDJ; `reason` tells staff why (null: told already). */
  private off(clock: number, reason: string | null): void {
    this.onAir = false;
    this.starvedSince = null;
    this.air.autodj.announce(clock);
    if (reason) this.failed(reason);
  }

  /** Once per outage: staff are told that the station elsewhere failed and the rotation covers it. */
  private failed(reason: string): void {
    if (this.failing || !this.upstream) return;
    this.failing = true;
    const address = this.upstream.station.address;
    this.air.log?.warn({ address, reason }, 'station elsewhere failed; the rotation covers it');
    this.air.emit({ type: 'source_failed', source: `the station elsewhere (${address})`, reason });
  }

  /** Its status named another title: on air from now, while its audio airs. */
  private titleChanged(): void {
    if (!this.onAir || !this.upstream) return;
    const next = this.track(this.air.clock());
    const { title, artist, artwork_url } = this.air.track();
    if (next.title === title && next.artist === artist && next.artwork_url === artwork_url) return;
    this.air.setTrack(next);
  }

  private track(clock: number): Track {
    const { title, artist, artwork_url } = this.upstream!.station.nowPlaying().current_track;
    return { title, artist, artwork_url, started_at: roundClock(clock) };
  }
}
