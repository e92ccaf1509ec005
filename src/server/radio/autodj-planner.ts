// Owns: what the AutoDJ plays next: Programming asked, the next deck prepared ahead, asked again on a change.
// Must not: mix, fade or move a deck on (autodj.ts does), nor ask anything but Programming what plays.
import { prepareDeck, type Deck, type Mixing } from './autodj-deck.js';
import type { DecodeOptions } from './decoder.js';
import type { LibraryItem } from './library.js';
import type { Airing, Programming } from './programming.js';

/** Where stream-clock seconds fall in wall-clock time (epoch ms), and back: the schedule speaks wall time. */
export interface ClockMap {
  wallAt(clock: number): number;
  clockAt(wall: number): number;
}

/** What the planner needs to choose and prepare items. */
export interface PlanOptions {
  /** What plays next, and from when (the station's schedule, or the library back to back). */
  programming: Programming;
  /** Played when the schedule has nothing: the shipped test transmission. */
  fallback: LibraryItem;
  mixing: () => Promise<Mixing>;
  stationName: () => string;
  onError?(error: unknown, item: LibraryItem): void;
  log?: DecodeOptions['log'];
}

/** What the planner reads of the AutoDJ's air (autodj.ts keeps it). */
export interface AirView {
  /** The item on air; null between items. */
  current(): Deck | null;
  /** A crossfade is under way: the decks are changing hands, nothing is planned again until it ends. */
  fading(): boolean;
  /** Not read while the engine ticks: another source has the air. */
  paused(): boolean;
  /** The stream-clock second last mixed: "now" for the schedule when nothing plays. */
  lastClock(): number;
  /** When (wall ms) the AutoDJ's next sample would air were it read now. */
  resumeWall(): number;
}

/** An item due at a set time has its decoder started this long before, so its first sample is there on time. */
export const OPEN_BEFORE_DUE_SECONDS = 5;
/** How often the schedule is asked again whether a programme now starts or ends while an item plays. */
const REPLAN_MS = 1000;
/** An item of unknown length is ended for a set start only this close to it (it may well end before). */
const UNKNOWN_LENGTH_HORIZON_MS = 10_000;

/**
 * Chooses the AutoDJ's next item: asks the schedule what airs after the item on air, prepares its deck ahead
 * (tags, subtitles, levelling), and asks again each second whether a programme now starts or ends before the
 * item on air does. The AutoDJ takes `next` on the air when its time comes.
 */
export class AutoDjPlanner {
  /** The item prepared to play next; the AutoDJ takes it on the air (and clears it). */
  next: Deck | null = null;
  private programming: Programming;
  private preparing: Promise<void> | null = null;
  /** The item due at a set start, prepared while the short item before it waits to play (prepareNext). */
  private early: { plan: number; from: number; deck: Promise<Deck | null> } | null = null;
  /** Counts plans: a deck prepared for an older plan is not taken. */
  private plan = 0;
  private lastReplan = 0;
  private replanning = false;
  private stopped = false;

  constructor(
    private readonly options: PlanOptions,
    private readonly clock: ClockMap,
    private readonly air: AirView,
  ) {
    this.programming = options.programming;
  }

  /** What plays next from now on (the station's schedule, once it is open). */
  setProgramming(programming: Programming): void {
    this.programming = programming;
    this.dropNext();
  }

  /** Gets the next item prepared (`airing`: what the schedule already answered for it). */
  async prepare(airing?: Airing): Promise<void> {
    if (!this.next && !this.preparing) {
      this.preparing = this.prepareNext(airing).finally(() => (this.preparing = null));
    }
    await this.preparing;
  }

  /** An item went on the air at `at` (wall ms): told to the schedule. */
  aired(item: LibraryItem, at: number): void {
    this.programming.aired(item, at);
  }

  /** Called on every engine tick: the schedule is asked again now and then. */
  check(now: number): void {
    if (now - this.lastReplan >= REPLAN_MS && !this.replanning) {
      this.lastReplan = now;
      this.replanning = true;
      void this.replan().finally(() => (this.replanning = false));
    }
  }

  stop(): void {
    this.stopped = true;
    this.dropEarly();
  }

  /** When (wall time) the item on air ends: the schedule's end for it, else its natural end when known. */
  private currentEnd(): { at: number; set: boolean } | null {
    const deck = this.air.current();
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
    const deck = this.air.current();
    if (!deck || deck.startedAt === null || this.air.fading() || this.preparing) return;
    // Not read for a while, the AutoDJ is paused under a live source or a relayed station: what it paused is
    // taken as resuming now, so the schedule is asked about what lies ahead by the wall clock, not from where
    // it stopped (a programme after a live one is then prepared and due on its second).
    const paused = this.air.paused();
    if (paused) deck.startedAt = this.clock.clockAt(this.air.resumeWall()) - deck.position;
    const natural = deck.length === null ? null : this.clock.wallAt(deck.startedAt + deck.length);
    const now = this.clock.wallAt(deck.startedAt + deck.position);
    // A set end the stream has not reached is still ahead, though the wall clock may have passed it (the
    // stream fell behind and its clock was set again): the schedule is asked from just before it. Paused, a
    // set end passed was passed on the air by what played instead.
    const from = deck.endsBy === null || paused ? now : Math.min(now, deck.endsBy - 1);
    const change = await this.programming
      .hardChangeBetween(from, natural ?? now + UNKNOWN_LENGTH_HORIZON_MS)
      .catch(() => deck.endsBy);
    if (this.air.current() !== deck || this.air.fading() || this.preparing) return;
    let airing: Airing | undefined;
    if (change === deck.endsBy) {
      // A fallback waiting to play gives way to what staff have added since. Only an answer replaces it:
      // asking the schedule is cheap, preparing a track (its tags, subtitles and mixing) is not.
      const fallbackWaits = () => this.next?.fallback === true && !this.next.decoder;
      if (!fallbackWaits()) return;
      airing = (await this.programming.next(this.nextFrom()).catch(() => null)) ?? undefined;
      if (!airing || this.air.current() !== deck || this.air.fading() || this.preparing || !fallbackWaits())
        return;
    }
    deck.endsBy = change;
    this.dropNext();
    void this.prepare(airing);
  }

  /** When the next item begins: where the one on air ends, else now. */
  private nextFrom(): number {
    return this.currentEnd()?.at ?? this.clock.wallAt(this.air.lastClock());
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
