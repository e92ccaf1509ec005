// Owns: the stream clock and frame pacing: the slot due by wall time, mixing ahead, catch-up after a stall.
// Must not: choose a source or touch a process; it asks the switch for audio and the outputs for frames.
import { FRAME_SAMPLES, FRAME_SECONDS, CHANNELS } from './pcm.js';
import type { Outputs } from './outputs.js';

/**
 * After a stall (a busy event loop, a machine that stopped) the audio missed is mixed and sent at once, up to
 * this much: listeners' players refill what they played from their buffer meanwhile, and the stream stays on
 * the wall clock, so programmes start on time. Past it the stream carries on from where it was (the audio of
 * the stall is skipped); what is due at a set time is placed by wall time, so it still starts on time.
 */
const MAX_CATCH_UP_SECONDS = 5;
/** Audio is mixed and handed to the encoder this far ahead of the broadcast, so its frames are there in time. */
const LEAD_SLOTS = Math.ceil(0.5 / FRAME_SECONDS);
/** How long the station waits for its first item's audio at start before it opens with silence. */
export const FIRST_AUDIO_WAIT_MS = 2000;

/** What the clock drives each tick. */
export interface PacedAir {
  /** The stream-clock second broadcast now (the main mount's). */
  broadcastClock(): number;
  /** Each tick, before any audio is mixed: the processes checked, `slot` the next to broadcast. */
  supervise(now: number, slot: number): void;
  /** One frame's audio for stream-clock second `clock` (the source switch); false: wait for it. */
  mix(out: Float32Array, at: number, clock: number, now: number): boolean;
  outputs: Pick<Outputs, 'write' | 'take' | 'broadcast' | 'flush'>;
  /** The first frame went out: the clock runs from here. */
  onFirstBroadcast(): void;
}

/**
 * One stream clock (seconds since the station started, never reset by a source change), paced in real time by
 * MP3 frame durations: slot n is frame n of every bitrate, on the air at wall time `wallBase` + n frames.
 */
export class StreamClock {
  /** Frames broadcast (every mount). */
  slot = 0;
  /** Frames of audio mixed and handed to the encoder. */
  producedSlot = 0;
  private wallBase = 0;
  /** Until then, while nothing is broadcast yet, the clock waits for the encoder's first frames. */
  private firstFramesBy = 0;
  private encoderWaitSince: number | null = null;

  constructor(
    private readonly air: PacedAir,
    private readonly options: {
      tickMs: number;
      /** The longest stall (seconds) caught up by sending the audio missed at once. */
      maxCatchUpSeconds?: number;
      /** Encoded frames this late (ms) are waited for; later, the slot goes silent. */
      gapMs: number;
    },
  ) {}

  /** The clock starts from the second broadcast now; the first frames get FIRST_AUDIO_WAIT_MS to come. */
  start(): void {
    this.wallBase = performance.now() - this.air.broadcastClock() * 1000;
    this.firstFramesBy = performance.now() + FIRST_AUDIO_WAIT_MS;
  }

  /** Wall time (epoch ms) at which stream-clock second `clock` is on the air. */
  wallAt(clock: number): number {
    return Date.now() + clock * 1000 - (performance.now() - this.wallBase);
  }

  /** The stream-clock second on the air at wall time `wall` (epoch ms). */
  clockAt(wall: number): number {
    return (wall - Date.now() + performance.now() - this.wallBase) / 1000;
  }

  /** The stream-clock second mixed up to. */
  get producedClock(): number {
    return this.producedSlot * FRAME_SECONDS;
  }

  /** Mixes audio ahead, then broadcasts the encoded frames due by now (plus one tick). */
  tick(): void {
    const now = performance.now();
    const clock = this.air.broadcastClock();
    let target = (now - this.wallBase) / 1000;
    if (target - clock > (this.options.maxCatchUpSeconds ?? MAX_CATCH_UP_SECONDS)) {
      this.wallBase = now - clock * 1000;
      target = clock;
    }
    target += this.options.tickMs / 1000;
    const targetSlot = Math.ceil(target / FRAME_SECONDS);
    this.air.supervise(now, this.slot);
    this.produce(targetSlot + LEAD_SLOTS, now);
    const starting = this.slot === 0;
    while (this.slot < targetSlot) {
      const taken = this.air.outputs.take(this.slot);
      if (taken.state === 'later' && this.slot === 0 && now < this.firstFramesBy) {
        // The encoder is starting and nobody hears a wait yet: the clock starts with its first audio, rather
        // than standing still, then jumping ahead over its first frames with silence.
        this.wallBase = now;
        break;
      }
      if (taken.state === 'later') {
        // Frames a moment late are waited for; longer, the slot goes silent so players hear no gap.
        this.encoderWaitSince ??= now;
        if (now - this.encoderWaitSince < this.options.gapMs) break;
      } else this.encoderWaitSince = null;
      this.air.outputs.broadcast(taken);
      this.slot++;
    }
    // The clock runs from here: web instances carry it on from this moment, not from the 0 of the start.
    if (starting && this.slot > 0) this.air.onFirstBroadcast();
    this.air.outputs.flush();
  }

  /** Mixes the source on air up to `untilSlot` and hands it to the encoder. */
  private produce(untilSlot: number, now: number): void {
    const slots = untilSlot - this.producedSlot;
    if (slots <= 0) return;
    const pcm = new Float32Array(slots * FRAME_SAMPLES * CHANNELS);
    let made = 0;
    while (made < slots) {
      const clock = (this.producedSlot + made) * FRAME_SECONDS;
      if (!this.air.mix(pcm, made * FRAME_SAMPLES, clock, now)) break;
      made++;
    }
    if (made === 0) return;
    const mixed = pcm.subarray(0, made * FRAME_SAMPLES * CHANNELS);
    this.air.outputs.write(this.producedSlot, mixed);
    this.producedSlot += made;
  }
}
