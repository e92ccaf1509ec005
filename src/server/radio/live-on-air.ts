// Owns: a live source on the air: its decoder, a presenter held to their programme, its gaps and dead air.
// Must not: touch the mounts, the encoder or the relayed station's state (it asks the source under it).
import type { Track } from '../../common/radio.js';
import { LiveDecoder } from './live-decoder.js';
import type { LiveInput, LiveSession } from './live-input.js';
import { levelDbfs, masterLimit, roundClock, SOUND_BACK_SECONDS, type OnAir } from './on-air.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from './pcm.js';

/** A live source's decoded audio kept ready; more waits in its queue (and then in the encoder's TCP). */
const LIVE_AHEAD_SECONDS = 1;
/**
 * A presenter let in early has their decoder started this long (ms) before their programme, holding the last
 * half second it decoded (less than it is fed up to, so it goes on reading the newest): their voice is there on
 * the start second, not once a decoder has started.
 */
const READY_BEFORE_MS = 3000;
const READY_FRAMES = Math.round((LIVE_AHEAD_SECONDS * SAMPLE_RATE) / 2);
/** Samples (both channels) of one slot in the mix. */
const SLOT_SAMPLES = FRAME_SAMPLES * CHANNELS;

/** What airs under a live source: told when the live source takes the air, kept up with while it has it. */
export interface Underneath {
  /** Its audio is skipped as the live source's airs, so it keeps up with its own clock. */
  keepUp(frames: number): void;
  /** The live source took the air: it takes the air afresh (its title again) when the live source leaves. */
  giveWay(): void;
}

/**
 * The live input's session on the air: first on the switch. Its silence is counted in `quiet`, the count the
 * rotation uses too (one count of the air's silence, whichever source has it).
 */
export class LiveOnAir {
  /** Its audio is what airs. */
  isLive = false;
  /** Replaced by the rotation for its silence, until it has sound again. */
  dead = false;
  private decoder: { session: LiveSession; decoder: LiveDecoder; ended: boolean } | null = null;
  private starvedSince: number | null = null;
  private soundSeconds = 0;
  /** Presenters disconnected at their programme's end. */
  private readonly endedSessions = new WeakSet<LiveSession>();
  /** One frame of a live source, measured before it airs. */
  private readonly frame = new Float32Array(SLOT_SAMPLES);

  constructor(
    private readonly air: OnAir,
    private readonly input: LiveInput,
    private readonly under: Underneath,
    private readonly quiet: { seconds: number },
  ) {}

  /** The decoder of the session on air, while there is one (supervised every tick). */
  get liveDecoder(): LiveDecoder | null {
    return this.decoder?.decoder ?? null;
  }

  /**
   * One frame's audio from the live source when it is on air: true when it is mixed into `out` (or a gap past
   * `gapMs` is silence), false while a live encoder lags (briefly), null when what is under it plays. An
   * encoder silent past the hand-back time gives the air back until it sends again.
   */
  mix(out: Float32Array, at: number, clock: number, now: number): boolean | null {
    const session = this.input.session;
    if (session?.onAir && !this.heldBack(session, clock)) {
      const live = this.decoderFor(session);
      if (live.decoder.available >= FRAME_SAMPLES) {
        this.starvedSince = null;
        this.frame.fill(0);
        live.decoder.mixInto(this.frame, 0, FRAME_SAMPLES);
        if (this.heard(this.frame, session, clock)) {
          if (!this.isLive) this.goLive(session, clock);
          for (let i = 0; i < SLOT_SAMPLES; i++) out[at * CHANNELS + i]! += this.frame[i]!;
          // A station elsewhere under the live source keeps up with its own clock, ready to be heard again.
          this.under.keepUp(FRAME_SAMPLES);
          return true;
        }
        return null;
      }
      if (!live.decoder.exhausted) {
        this.starvedSince ??= now;
        if (now - this.starvedSince < this.air.handBackMs) {
          if (!this.isLive && !this.dead) this.goLive(session, clock);
          // A short gap is waited out; a longer one is silence, so players hear no gap and the clock keeps time.
          if (!this.dead) return now - this.starvedSince >= this.air.gapMs;
        } else if (this.isLive) {
          this.isLive = false;
          this.air.autodj.announce(clock);
          this.air.log?.warn('live source connected but silent; AutoDJ continues until it sends again');
          this.air.emit({
            type: 'source_failed',
            source: this.name(session),
            reason: 'it stopped sending audio',
          });
        }
        return null;
      }
      this.ended(session, clock);
    }
    if (this.isLive) {
      this.isLive = false;
      this.air.autodj.announce(clock);
    }
    return null;
  }

  /** An encoder's metadata update: the title on air from now, while it has the air. */
  metadata(session: LiveSession): void {
    if (this.isLive && this.input.session === session)
      this.air.setTrack(this.track(session, this.air.clock()));
  }

  stop(): void {
    this.decoder?.decoder.close();
    this.decoder = null;
  }

  /**
   * A presenter let in before their programme waits, the rotation playing, and takes the air on its start
   * second; at its end they are disconnected and the rotation goes on.
   */
  private heldBack(session: LiveSession, clock: number): boolean {
    const by = session.info.connectedBy;
    if (by?.kind !== 'presenter') return false;
    const wall = this.air.wallAt(clock);
    if (wall < by.startsAt.getTime()) {
      session.keepLast(LIVE_AHEAD_SECONDS);
      if (by.startsAt.getTime() - wall < READY_BEFORE_MS)
        this.decoderFor(session).decoder.keepLast(READY_FRAMES);
      return true;
    }
    if (wall < by.endsAt.getTime()) return false;
    // Past the end nothing more of theirs airs, not even what their decoder held: the next programme is due.
    if (!this.endedSessions.has(session)) {
      this.endedSessions.add(session);
      this.air.log?.info({ presenter: by.username }, 'programme ended; presenter disconnected');
      session.abort?.();
    }
    session.keepLast(0);
    if (session.done) this.ended(session, clock);
    return true;
  }

  /** The live session is over: the input is free again, and the rotation has the air. */
  private ended(session: LiveSession, clock: number): void {
    this.starvedSince = null;
    this.input.release(session);
    this.decoder?.decoder.close();
    this.decoder = null;
    this.dead = false;
    this.air.log?.info('live source ended; AutoDJ continues');
    this.air.emit({ type: 'live_off_air', name: this.name(session), clock });
  }

  /**
   * Whether a live frame airs: not while the source has been under the silence level for the silence time
   * (dead air: the rotation covers it, staff are told), until it has had sound for half a second again.
   */
  private heard(frame: Float32Array, session: LiveSession, clock: number): boolean {
    const settings = this.air.settings();
    const quiet = levelDbfs(frame, 0, SLOT_SAMPLES) < settings.silence_threshold_dbfs;
    if (this.dead) {
      this.soundSeconds = quiet ? 0 : this.soundSeconds + FRAME_SECONDS;
      if (this.soundSeconds < SOUND_BACK_SECONDS) return false;
      this.dead = false;
      this.quiet.seconds = 0;
      this.air.log?.info('live source has sound again; back on air');
      this.air.emit({ type: 'dead_air_ended', source: 'live', name: this.name(session) });
      return true;
    }
    this.quiet.seconds = quiet ? this.quiet.seconds + FRAME_SECONDS : 0;
    if (this.quiet.seconds < settings.silence_seconds) return true;
    this.dead = true;
    this.soundSeconds = 0;
    if (this.isLive) {
      this.isLive = false;
      this.air.autodj.announce(clock);
    }
    this.air.log?.warn(
      { seconds: this.quiet.seconds },
      'dead air: the live source is silent; the rotation covers it',
    );
    this.air.emit({
      type: 'dead_air',
      source: 'live',
      seconds: Math.round(this.quiet.seconds),
      title: this.name(session),
    });
    return false;
  }

  private name(session: LiveSession): string {
    return session.info.name?.trim() || `${this.air.stationName()} Live`;
  }

  /** The live session's decoder, fed from its queue up to a second of audio ahead. */
  private decoderFor(session: LiveSession): { decoder: LiveDecoder } {
    if (this.decoder?.session !== session) {
      this.decoder?.decoder.close();
      const settings = this.air.settings();
      const decoder = new LiveDecoder(
        { targetLufs: settings.loudness_target_lufs, limit: masterLimit(settings) },
        {
          format: 'mp3',
          aheadSeconds: LIVE_AHEAD_SECONDS,
          log: (message, detail) => this.air.log?.warn(detail, message),
        },
      );
      this.decoder = { session, decoder, ended: false };
    }
    const live = this.decoder;
    // Fed by what it has decoded, not by what it has written back yet: an encoder sending faster than real
    // time waits in its own bounded queue (and TCP), never in the decoder's pipe.
    while (
      live.decoder.available < LIVE_AHEAD_SECONDS * SAMPLE_RATE &&
      live.decoder.inFlightSeconds < LIVE_AHEAD_SECONDS
    ) {
      const frame = session.nextFrame();
      if (!frame) break;
      live.decoder.write(frame.data, frame.duration);
    }
    if (session.done && !live.ended) {
      live.ended = true;
      live.decoder.end();
    }
    return live;
  }

  private goLive(session: LiveSession, clock: number): void {
    this.isLive = true;
    this.under.giveWay();
    this.quiet.seconds = 0;
    this.air.log?.info({ remote: session.info.remote }, 'live source on air');
    this.air.emit({ type: 'live_on_air', name: this.name(session), clock });
    this.air.setTrack(this.track(session, clock), clock);
  }

  private track(session: LiveSession, clock: number): Track {
    const station = this.air.stationName();
    const song = session.song?.trim();
    const split = song ? song.split(' - ') : [];
    const [artist, title] =
      split.length >= 2
        ? [split[0]!.trim(), split.slice(1).join(' - ').trim()]
        : [station, song || session.info.name?.trim() || `${station} Live`];
    return {
      title: title || `${station} Live`,
      artist: artist || station,
      artwork_url: null,
      started_at: roundClock(clock),
    };
  }
}
