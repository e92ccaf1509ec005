// Owns: the AutoDJ: what the schedule (Programming) says plays next, prepared ahead, levelled and crossfaded.
// Must not: ask anything but Programming what plays, nor touch the live input, the relay or the outputs.
import { prepareDeck, type Cue, type Deck, type Mixing } from './autodj-deck.js';
import type { DecodeOptions } from './decoder.js';
import type { LibraryItem } from './library.js';
import { SAMPLE_RATE } from './pcm.js';
import type { Airing, Programming } from './programming.js';

export type { Cue, Mixing } from './autodj-deck.js';

export interface AutoDjTrack {
  title: string;
  artist: string;
  artworkUrl: string | null;
  /** Stream-clock second at which the track's first second plays (or would have, when resumed). */
  startedAt: number;
}

/** Where stream-clock seconds fall in wall-clock time (epoch ms), and back: the schedule speaks wall time. */
export interface ClockMap {
  wallAt(clock: number): number;
  clockAt(wall: number): number;
}

export interface AutoDjOptions {
  /** What plays next, and from when (the station's schedule, or the library back to back). */
  programming: Programming;
  /** Played when the schedule has nothing: the shipped test transmission. */
  fallback: LibraryItem;
  mixing: () => Promise<Mixing>;
  /** Default: stream-clock second n is wall time n × 1000 (tests drive a faked clock this way). */
  clock?: ClockMap;
  stationName: () => string;
  onTrack(track: AutoDjTrack): void;
  onCue(cue: Cue): void;
  onError?(error: unknown, item: LibraryItem): void;
  log?: DecodeOptions['log'];
}

/** An item due at a set time has its decoder started this long before, so its first sample is there on time. */
const OPEN_BEFORE_DUE_SECONDS = 5;
/** How often the schedule is asked again whether a programme now starts or ends while an item plays. */
const REPLAN_MS = 1000;
/** The AutoDJ not read this long (ms) while the engine ticks is paused under another source. */
const PAUSED_AFTER_MS = 1000;
/** An item of unknown length is ended for a set start only this close to it (it may well end before). */
const UNKNOWN_LENGTH_HORIZON_MS = 10_000;

/**
 * Plays the library back to back as decoded audio, levelled to the station's loudness, with silence at either
 * end trimmed and a crossfade between items. The engine pulls it in real time; decoders work ahead.
 */
export class AutoDj {
  private programming: Programming;
  private readonly clock: ClockMap;
  private current: Deck | null = null;
  private next: Deck | null = null;
  /**
   * Sample frames of the crossfade under way (current fading out, next in), and how many are done. A cut is
   * a set start: the next item begins at full level while what played fades out.
   */
  private fade: { length: number; done: number; cut: boolean } | null = null;
  private preparing: Promise<void> | null = null;
  /** The item due at a set start, prepared while the short item before it waits to play (prepareNext). */
  private early: { plan: number; from: number; deck: Promise<Deck | null> } | null = null;
  /** Counts plans: a deck prepared for an older plan is not taken. */
  private plan = 0;
  private lastReplan = 0;
  private replanning = false;
  /** The stream-clock second last mixed: "now" for the schedule when nothing plays. */
  private lastClock = 0;
  /** When (performance.now) the engine last read the AutoDJ, and last checked it. */
  private lastReadAt = 0;
  private lastCheckAt = 0;
  /** Not read while the engine ticks: another source has the air (see `check`). */
  private paused = false;
  private stopped = false;

  constructor(private readonly options: AutoDjOptions) {
    this.programming = options.programming;
    this.clock = options.clock ?? { wallAt: (clock) => clock * 1000, clockAt: (wall) => wall / 1000 };
  }

  /** What plays next from now on (the station's schedule, once it is open). */
  setProgramming(programming: Programming): void {
    this.programming = programming;
    this.dropNext();
  }

  /**
   * Gets the next item decoding so the station starts with audio, not silence (`airing`: what the schedule
   * already answered for it).
   */
  async prepare(airing?: Airing): Promise<void> {
    if (!this.next && !this.preparing) {
      this.preparing = this.prepareNext(airing).finally(() => (this.preparing = null));
    }
    await this.preparing;
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
    if (ticking && now - this.lastReadAt > PAUSED_AFTER_MS) this.paused = true;
    this.current?.decoder?.check(now);
    if (this.fade) this.next?.decoder?.check(now);
    // Not read (a live source or a relayed station on air), the item due next still starts decoding ahead of
    // its set start, so it is there on its second when the air comes back to the AutoDJ.
    const dueBy = this.next?.dueBy ?? null;
    if (dueBy !== null && dueBy - this.resumeWall() < OPEN_BEFORE_DUE_SECONDS * 1000) this.next!.open();
    if (now - this.lastReplan >= REPLAN_MS && !this.replanning) {
      this.lastReplan = now;
      this.replanning = true;
      void this.replan().finally(() => (this.replanning = false));
    }
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
    this.dropEarly();
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
    this.programming.aired(deck.item, this.clock.wallAt(clock));
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

  /** When (wall time) the item on air ends: the schedule's end for it, else its natural end when known. */
  private currentEnd(): { at: number; set: boolean } | null {
    const deck = this.current;
    if (!deck) return null;
    if (deck.endsBy !== null) return { at: deck.endsBy, set: true };
    const length = deck.length;
    if (deck.startedAt === null || length === null) return null;
    return { at: this.clock.wallAt(deck.startedAt + length), set: false };
  }

  /**
   * Asks the schedule whether what airs must change before the item on air ends (a programme added, moved or
   * removed); if the answer is new, or the fallback is waiting to play, the next item is planned again.
   */
  private async replan(): Promise<void> {
    const deck = this.current;
    if (!deck || deck.startedAt === null || this.fade || this.preparing) return;
    // Not read for a while, the AutoDJ is paused under a live source or a relayed station: what it paused is
    // taken as resuming now, so the schedule is asked about what lies ahead by the wall clock, not from where
    // it stopped (a programme after a live one is then prepared and due on its second).
    const paused = this.paused;
    if (paused) deck.startedAt = this.clock.clockAt(this.resumeWall()) - deck.position;
    const natural = deck.length === null ? null : this.clock.wallAt(deck.startedAt + deck.length);
    const now = this.clock.wallAt(deck.startedAt + deck.position);
    // A set end the stream has not reached is still ahead, though the wall clock may have passed it (the
    // stream fell behind and its clock was set again): the schedule is asked from just before it. Paused, a
    // set end passed was passed on the air by what played instead.
    const from = deck.endsBy === null || paused ? now : Math.min(now, deck.endsBy - 1);
    const change = await this.programming
      .hardChangeBetween(from, natural ?? now + UNKNOWN_LENGTH_HORIZON_MS)
      .catch(() => deck.endsBy);
    if (this.current !== deck || this.fade || this.preparing) return;
    let airing: Airing | undefined;
    if (change === deck.endsBy) {
      // A fallback waiting to play gives way to what staff have added since. Only an answer replaces it:
      // asking the schedule is cheap, preparing a track (its tags, subtitles and mixing) is not.
      const fallbackWaits = () => this.next?.fallback === true && !this.next.decoder;
      if (!fallbackWaits()) return;
      airing = (await this.programming.next(this.nextFrom()).catch(() => null)) ?? undefined;
      if (!airing || this.current !== deck || this.fade || this.preparing || !fallbackWaits()) return;
    }
    deck.endsBy = change;
    this.dropNext();
    void this.prepare(airing);
  }

  /** When the next item begins: where the one on air ends, else now. */
  private nextFrom(): number {
    return this.currentEnd()?.at ?? this.clock.wallAt(this.lastClock);
  }

  private dropNext(): void {
    this.plan++;
    this.next?.decoder?.close();
    this.next = null;
    this.dropEarly();
  }

  private dropEarly(): void {
    void this.early?.deck.then((deck) => deck?.decoder?.close());
    this.early = null;
  }

  private async prepareNext(answered?: Airing): Promise<void> {
    const plan = this.plan;
    const end = this.currentEnd();
    const from = this.nextFrom();
    const early = this.early?.plan === plan && this.early.from === from ? this.early.deck : null;
    this.early = null;
    const deck = await (early ?? this.deckFor(from, end, plan, answered));
    if (!deck) return;
    if (this.stopped || plan !== this.plan) {
      deck.decoder?.close();
      return;
    }
    this.next = deck;
    // An item cut short by a set start soon after it begins: the item due then is prepared and decoding now,
    // not once this one is on the air, which may be too late for its first sample to be there on its second.
    const setEnd = deck.endsBy;
    if (setEnd !== null && setEnd - from < OPEN_BEFORE_DUE_SECONDS * 1000) {
      const due = this.deckFor(setEnd, { at: setEnd, set: true }, plan).then((ready) => {
        ready?.open();
        return ready;
      });
      this.early = { plan, from: setEnd, deck: due };
    }
  }

  /** The deck of what airs from `from` (wall ms) after an item ending at `end`, or null. */
  private async deckFor(
    from: number,
    end: { at: number; set: boolean } | null,
    plan: number,
    answered?: Airing,
  ): Promise<Deck | null> {
    for (let attempt = 0; attempt < 6 && !this.stopped; attempt++) {
      const airing =
        attempt === 0 && answered ? answered : await this.programming.next(from).catch(() => null);
      const item = airing?.item ?? this.options.fallback;
      try {
        const deck = await prepareDeck(item, this.options);
        if (this.stopped || plan !== this.plan) return null;
        deck.endsBy = airing?.endsBy ?? null;
        deck.fallback = !airing;
        if (end?.set) deck.dueBy = end.at;
        return deck;
      } catch (error) {
        this.options.onError?.(error, item);
        if (!airing) return null;
      }
    }
    return null;
  }
}
