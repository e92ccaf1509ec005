// Owns: the AutoDJ on the air: the item playing, the next taken on at its time or crossfaded in, pauses.
// Must not: choose what plays (autodj-planner.ts asks Programming), nor touch the live input, relay, outputs.
import type { Cue, Deck } from './autodj-deck.js';
import { AutoDjPlanner, OPEN_BEFORE_DUE_SECONDS, type ClockMap, type PlanOptions } from './autodj-planner.js';
import { SAMPLE_RATE } from './pcm.js';
import type { Airing, Programming } from './programming.js';

export type { Cue, Mixing } from './autodj-deck.js';
export type { ClockMap } from './autodj-planner.js';

export interface AutoDjTrack {
  title: string;
  artist: string;
  artworkUrl: string | null;
  /** Stream-clock second at which the track's first second plays (or would have, when resumed). */
  startedAt: number;
}

export interface AutoDjOptions extends PlanOptions {
  /** Default: stream-clock second n is wall time n × 1000 (tests drive a faked clock this way). */
  clock?: ClockMap;
  onTrack(track: AutoDjTrack): void;
  onCue(cue: Cue): void;
}

/** The AutoDJ not read this long (ms) while the engine ticks is paused under another source. */
const PAUSED_AFTER_MS = 1000;

/**
 * Plays the library back to back as decoded audio, levelled to the station's loudness, with silence at either
 * end trimmed and a crossfade between items. The engine pulls it in real time; decoders work ahead. What plays
 * next is the planner's (autodj-planner.ts); this class takes it on the air.
 */
export class AutoDj {
  private readonly planner: AutoDjPlanner;
  private readonly clock: ClockMap;
  private current: Deck | null = null;
  /**
   * Sample frames of the crossfade under way (current fading out, next in), and how many are done. A cut is
   * a set start: the next item begins at full level while what played fades out.
   */
  private fade: { length: number; done: number; cut: boolean } | null = null;
  /** The stream-clock second last mixed: "now" for the schedule when nothing plays. */
  private lastClock = 0;
  /** When (performance.now) the engine last read the AutoDJ, and last checked it. */
  private lastReadAt = 0;
  private lastCheckAt = 0;
  /** Not read while the engine ticks: another source has the air (see `check`). */
  private paused = false;
  private stopped = false;

  constructor(private readonly options: AutoDjOptions) {
    this.clock = options.clock ?? { wallAt: (clock) => clock * 1000, clockAt: (wall) => wall / 1000 };
    this.planner = new AutoDjPlanner(options, this.clock, {
      current: () => this.current,
      fading: () => this.fade !== null,
      paused: () => this.paused,
      lastClock: () => this.lastClock,
      resumeWall: () => this.resumeWall(),
    });
  }

  /** The item to play next, as the planner chose and prepared it; taken on the air here. */
  private get next(): Deck | null {
    return this.planner.next;
  }

  private set next(deck: Deck | null) {
    this.planner.next = deck;
  }

  /** What plays next from now on (the station's schedule, once it is open). */
  setProgramming(programming: Programming): void {
    this.planner.setProgramming(programming);
  }

  /**
   * Gets the next item decoding so the station starts with audio, not silence (`airing`: what the schedule
   * already answered for it).
   */
  prepare(airing?: Airing): Promise<void> {
    return this.planner.prepare(airing);
  }

  /**
   * Whether the item to play next (the one on air while the next has no decoder yet) has a second of audio
   * decoded, or all of it: the engine waits for it at start, tests before each read. A decoder's first output
   * is a few samples; waiting for those alone opens with silence.
   */
  get ready(): boolean {
    if (!this.current) this.next?.open();
    const decoder = this.next?.decoder ?? this.current?.decoder;
    return !!decoder && (decoder.ended || decoder.available >= SAMPLE_RATE);
  }

  /**
   * Adds `frames` sample frames of the AutoDJ into `out` from `at`, the first of them at stream-clock second
   * `clock`. What no item can fill yet stays silent.
   */
  read(out: Float32Array, at: number, frames: number, clock: number): void {
    // Paused under another source: what it paused resumes here.
    if (this.paused) this.resumeAt(clock);
    this.paused = false;
    this.lastClock = clock;
    this.lastReadAt = performance.now();
    let done = 0;
    for (let guard = 0; done < frames && guard < 8; guard++) {
      const t = clock + done / SAMPLE_RATE;
      const due = this.dueClock();
      if (this.next && (!this.current || this.current.decoder!.ended)) this.next.open();
      if (due !== null && due - t < OPEN_BEFORE_DUE_SECONDS) this.next!.open();
      if (due !== null && t >= due - 0.5 / SAMPLE_RATE && !this.fade) this.cut(t);
      if (!this.current) {
        const incoming = this.next?.decoder;
        if (!incoming || (incoming.available === 0 && !incoming.exhausted)) break;
        if (due !== null && t < due) {
          // What played ended before this item's set start: silence until then, which the schedule keeps short.
          done += Math.min(frames - done, Math.max(1, Math.round((due - t) * SAMPLE_RATE)));
          continue;
        }
        this.current = this.next!;
        this.next = null;
        this.onAir(this.current, t);
      }
      const deck: Deck = this.current;
      this.startFadeIfDue(t);
      let want = frames - done;
      // Up to a set start exactly, so the next item's first sample is on its second.
      if (due !== null && !this.fade) want = Math.min(want, Math.max(1, Math.round((due - t) * SAMPLE_RATE)));
      let got: number;
      if (this.fade) {
        const { length, done: faded, cut } = this.fade;
        got = deck.decoder!.mixInto(out, at + done, want, { direction: 'out', length, done: faded });
        if (cut) got = want;
        const incoming = this.next!;
        incoming.decoder!.mixInto(out, at + done, got, cut ? null : { direction: 'in', length, done: faded });
        this.fade.done += got;
        this.advance(incoming, got, t);
      } else {
        got = deck.decoder!.mixInto(out, at + done, want);
      }
      this.advance(deck, got, t);
      done += got;
      if (deck.decoder!.exhausted || (this.fade?.cut && this.fade.done >= this.fade.length)) {
        deck.decoder!.close();
        // After a crossfade the incoming item is already playing (and announced); else it starts next round.
        this.current = this.fade ? this.next : null;
        if (this.fade) this.next = null;
        this.fade = null;
      } else if (got < want) break; // decoder behind: silence for the rest, it catches up
    }
    if (!this.next && !this.stopped) void this.prepare();
  }

  /** The item on air's decoder (the engine checks it for hangs), and the schedule asked again now and then. */
  check(now: number): void {
    // The engine ticking (checks a tick apart) but not reading the AutoDJ: another source has the air. Not
    // after a stall, when the engine did neither (the stream is then behind the clock, decision 032).
    const ticking = now - this.lastCheckAt < PAUSED_AFTER_MS;
    this.lastCheckAt = now;
    if (ticking && now - this.lastReadAt > PAUSED_AFTER_MS) {
      if (!this.paused && this.fade) {
        // Another source took the air as a crossfade began (a live programme's start is also the fill's set
        // start): what came in is what resumes, and what follows it is planned now, since nothing is planned
        // during a crossfade; else a programme after the live one waits for the end of the fade to be planned.
        this.skip();
        void this.prepare();
      }
      this.paused = true;
    }
    this.current?.decoder?.check(now);
    if (this.fade) this.next?.decoder?.check(now);
    // Not read (a live source or a relayed station on air), the item due next still starts decoding ahead of
    // its set start, so it is there on its second when the air comes back to the AutoDJ.
    const dueBy = this.next?.dueBy ?? null;
    if (dueBy !== null && dueBy - this.resumeWall() < OPEN_BEFORE_DUE_SECONDS * 1000) this.next!.open();
    this.planner.check(now);
  }

  /**
   * The AutoDJ is on the air again from stream-clock second `clock` (a live source or a relayed station handed
   * back): what it paused resumes there, and listeners are told again what plays.
   */
  announce(clock: number): void {
    this.resumeAt(clock);
    const deck = this.fade ? this.next : this.current;
    if (!deck) return;
    this.options.onTrack({
      title: deck.info.title,
      artist: deck.info.artist,
      artworkUrl: deck.info.artworkUrl,
      startedAt: clock - deck.position,
    });
  }

  /** Ends the item on air now (it has been silent too long): the next one plays from the next read. */
  skip(): void {
    this.current?.decoder?.close();
    // Mid-crossfade, the incoming item is what plays on.
    this.current = this.fade ? this.next : null;
    if (this.fade) this.next = null;
    this.fade = null;
  }

  stop(): void {
    this.stopped = true;
    this.current?.decoder?.close();
    this.next?.decoder?.close();
    this.current = this.next = null;
    this.planner.stop();
  }

  /** What was paused (the item on air, and the incoming one mid-crossfade) plays on from `clock`. */
  private resumeAt(clock: number): void {
    for (const deck of [this.current, this.fade ? this.next : null])
      if (deck && deck.startedAt !== null) deck.startedAt = clock - deck.position;
  }

  /**
   * When (wall ms) the AutoDJ's next sample would air were it read now: where it was last read, moved on by the
   * time since (while it is read each tick, that is the mixing's lead ahead of now).
   */
  private resumeWall(): number {
    return this.clock.wallAt(this.lastClock) + (performance.now() - this.lastReadAt);
  }

  /** The stream-clock second at which the next item must begin, or null. */
  private dueClock(): number | null {
    const dueBy = this.next?.dueBy ?? null;
    return dueBy === null ? null : this.clock.clockAt(dueBy);
  }

  /** A deck's first moment on air: announced, and told to the schedule. */
  private onAir(deck: Deck, clock: number): void {
    deck.startedAt = clock;
    this.announce(clock);
    this.planner.aired(deck.item, this.clock.wallAt(clock));
  }

  /** A set start at `clock`: the next item begins now at full level, what plays fades out over the crossfade. */
  private cut(clock: number): void {
    const incoming = this.next!;
    incoming.dueBy = null;
    if (!this.current) return;
    const length = Math.round(this.current.crossfadeSeconds * SAMPLE_RATE);
    if (length === 0 || this.current.decoder!.exhausted) {
      this.current.decoder!.close();
      this.current = null;
      return;
    }
    this.fade = { length, done: 0, cut: true };
    this.onAir(incoming, clock);
  }

  /** The crossfade starts when the item on air has no more than the fade left and the next one is ready. */
  private startFadeIfDue(clock: number): void {
    const deck = this.current!;
    const length = Math.round(deck.crossfadeSeconds * SAMPLE_RATE);
    if (this.fade || length === 0 || !this.next || this.next.dueBy !== null || !deck.decoder!.ended) return;
    if (deck.decoder!.available > length || !this.next.decoder?.available) return;
    this.fade = { length: Math.max(1, deck.decoder!.available), done: 0, cut: false };
    this.onAir(this.next, clock);
  }

  /** Moves a deck on by `frames` played from stream-clock second `clock`, emitting its subtitles. */
  private advance(deck: Deck, frames: number, clock: number): void {
    deck.advance(frames, clock, (cue) => this.options.onCue(cue));
  }
}
