import { addDays, type Airs, type Upcoming } from '../../../common/programs.js';
import type { Database } from '../../db/client.js';
import type { AirEvent } from '../../radio/engine.js';
import type { LibraryItem } from '../../radio/library.js';
import type { StationEvent } from '../notifications/service.js';
import type { PresenterSchedule, PresenterWindow } from '../presenters/service.js';
import { PRESENTER_EARLY_MINUTES } from '../../../common/presenters.js';
import type { Airing, Programming } from '../../radio/programming.js';
import type { EventBus } from '../../plugins/event-bus.js';
import { airingsBetween, SCHEDULE_CHANGED_TOPIC, stationClock } from '../programs/service.js';
import { planBetween, planNext, type Catalogue, type PlannedItem, type PlanState } from './planner.js';
import { hardChangeBetween, slotAt, slotsOf, type Slot } from './slots.js';

/** What can play, read once: the ready library items with their kind and when they came. */
export interface Playable extends LibraryItem {
  id: string;
  title: string;
  kind: string;
  addedAt: number;
}

/**
 * The rotation the schedule draws from: the playlists feature's rules, or (with none) the whole library in
 * the order it came. Its state is plain data, copied for the preview.
 */
export interface Rotation<State> {
  initial: State;
  pick(
    playlistId: string | null,
    at: number,
    state: State,
    items: Map<string, Playable>,
  ): Promise<{ item: Playable; state: State; relaxed?: string | null } | null>;
  aired?(item: Playable, at: number): void;
}

const PRESENTER_EARLY_MS = PRESENTER_EARLY_MINUTES * 60_000;
/** How long into a live programme its presenter may still connect before staff are told. */
const PRESENTER_GRACE_MS = 60_000;
const isPresenters = (slot: Slot, presenterId: string) =>
  slot.airs.kind === 'live' && slot.airs.presenterId === presenterId;
const windowOf = (slot: Slot): PresenterWindow => ({
  opensAt: new Date(slot.start - PRESENTER_EARLY_MS),
  startsAt: new Date(slot.start),
  endsAt: new Date(slot.end),
  programmeTitle: slot.programme.title,
});

/**
 * How long a read of the schedule's slots is used. Staff's saves forget it at once (`followSaves`, told
 * over the bus on every instance); this only bounds how late a change made some other way is heard.
 */
const SLOTS_FRESH_MS = 60_000;

/**
 * The library by id and the newest item of each kind, found once per list read (the library reader keeps
 * its list until something changes): each was a pass over the whole library at every plan.
 */
const readOf = new WeakMap<
  Playable[],
  { items: Map<string, Playable>; newest: Map<string, PlannedItem | null> }
>();

const planned = (item: Playable): PlannedItem => ({
  ...item,
  artist: item.artist ?? '',
  length: Math.max(0, (item.cueOut ?? item.duration ?? 0) - (item.cueIn ?? 0)),
});

/**
 * The station's schedule deciding what airs: the engine's `Programming` and the Schedule tab's preview, from
 * the same rules (planner.ts) over the same slots.
 */
export class OnAir<State> implements Programming {
  private state: PlanState<State>;
  /** A programme's recording handed to the engine, not on the air yet. */
  private preparedRecording: { key: string; mediaId: string } | null = null;
  /** Slots read lately, by the days they cover (the engine's three, the preview's four). */
  private readonly slotsRead = new Map<string, { at: number; slots: Slot[] }>();
  /** Counts the schedule's changes, so a read begun before one is not kept. */
  private scheduleVersion = 0;
  private readonly airedListeners = new Set<(item: Playable) => void>();

  constructor(
    private readonly deps: {
      db: Database;
      timeZone: () => string;
      /** The ready library items, by id, in the order they came. */
      library: () => Promise<Playable[]>;
      rotation: Rotation<State>;
      /** Whether what a programme names is there. */
      exists: { media(id: string): Promise<boolean>; playlist(id: string): Promise<boolean> };
      now?: () => number;
    },
  ) {
    this.state = { rotation: structuredClone(deps.rotation.initial), begun: [] };
  }

  async next(from: number): Promise<Airing | null> {
    const [slots, catalogue] = await Promise.all([this.slots(from), this.catalogue()]);
    const { step, state } = await planNext(from, slots, catalogue, this.state);
    // A programme's recording counts as begun once it is on the air (aired), not when it is prepared: a
    // prepared item the engine drops for a change of plan is offered again.
    this.state = { rotation: state.rotation, begun: this.state.begun };
    const slot = step.slot;
    this.preparedRecording =
      slot && step.item && state.begun.includes(slot.key) && !this.state.begun.includes(slot.key)
        ? { key: slot.key, mediaId: step.item.id }
        : this.preparedRecording;
    return step.item ? { item: step.item, endsBy: step.endsBy } : null;
  }

  async hardChangeBetween(from: number, to: number): Promise<number | null> {
    return hardChangeBetween(await this.slots(from), from, to);
  }

  /** Library items as they go on the air (captions from speech caption the speech among them). */
  onAired(listener: (item: Playable) => void): () => void {
    this.airedListeners.add(listener);
    return () => this.airedListeners.delete(listener);
  }

  aired(item: LibraryItem, at: number): void {
    if (item.id) for (const listener of this.airedListeners) listener(item as Playable);
    const prepared = this.preparedRecording;
    if (prepared && item.id === prepared.mediaId) {
      this.state = { ...this.state, begun: [...this.state.begun.slice(-50), prepared.key] };
      this.preparedRecording = null;
    }
    if (item.id) this.deps.rotation.aired?.(item as Playable, at);
  }

  /** The next hours as they will air, item by item, from the rotation as it stands (nothing changes). */
  async upcoming(hours: number): Promise<Upcoming> {
    const from = this.now();
    const to = from + hours * 3_600_000;
    const [slots, catalogue] = await Promise.all([this.slotsBetween(from, to), this.catalogue()]);
    const entries = await planBetween(from, to, slots, catalogue, structuredClone(this.state));
    return {
      timeZone: this.deps.timeZone(),
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      entries,
    };
  }

  /** Why what a programme airs cannot be saved, or null: what it names must be there. */
  async problemWith(airs: Airs): Promise<string | null> {
    if (airs.kind === 'recording' && !(await this.deps.exists.media(airs.mediaId)))
      return 'That recording is not in the library';
    if (airs.kind === 'playlist' && !(await this.deps.exists.playlist(airs.playlistId)))
      return 'That playlist does not exist';
    if (airs.fillPlaylistId && !(await this.deps.exists.playlist(airs.fillPlaylistId)))
      return 'The playlist to play after it does not exist';
    return null;
  }

  /** What happened on the air, as staff are told it: a live source named by the programme on now. */
  async notice(event: AirEvent): Promise<StationEvent> {
    const programme = (await this.slotAt(this.now()).catch(() => null))?.programme.title;
    switch (event.type) {
      case 'live_on_air':
      case 'live_off_air':
        return { type: event.type, programme: programme ?? event.name, presenter: event.name };
      case 'dead_air':
        return {
          type: 'dead_air',
          source:
            event.source === 'live'
              ? `the live source (${event.title})`
              : event.source === 'external'
                ? `the station elsewhere (${event.title})`
                : `"${event.title}"`,
          seconds: event.seconds,
        };
      case 'dead_air_ended':
        return {
          type: 'dead_air_ended',
          source:
            event.source === 'live'
              ? `the live source (${event.name})`
              : `the station elsewhere (${event.name})`,
        };
      case 'source_failed':
        return { type: 'source_failed', source: event.source, reason: event.reason };
    }
  }

  /** The live programmes of a presenter: when their encoder is let in, when they start and end. */
  readonly presenters: PresenterSchedule = {
    window: async (presenterId, now) => {
      const at = now.getTime();
      const slot = (await this.slots(at)).find(
        (s) => isPresenters(s, presenterId) && s.start - PRESENTER_EARLY_MS <= at && at < s.end,
      );
      return slot ? windowOf(slot) : null;
    },
    upcoming: async (presenterId, now, hours) => {
      const from = now.getTime();
      const slots = await this.slotsBetween(from, from + hours * 3_600_000);
      return slots
        .filter((s) => isPresenters(s, presenterId) && s.end > from && s.start <= from + hours * 3_600_000)
        .map(windowOf);
    },
  };

  /**
   * Tells staff once when a live programme has begun and its presenter's encoder is not there (a minute's
   * grace); the fill plays meanwhile. Returns what stops the watch.
   */
  watchPresenters(watch: {
    connected(presenterId: string): boolean;
    presenterName(presenterId: string): Promise<string>;
    notify(event: StationEvent): void;
  }): () => void {
    const told = new Set<string>();
    const check = async () => {
      const now = this.now();
      const slot = await this.slotAt(now);
      if (slot?.airs.kind !== 'live' || told.has(slot.key) || now - slot.start < PRESENTER_GRACE_MS) return;
      told.add(slot.key);
      if (watch.connected(slot.airs.presenterId)) return;
      watch.notify({
        type: 'presenter_missing',
        programme: slot.programme.title,
        presenter: await watch.presenterName(slot.airs.presenterId),
        scheduledStart: new Date(slot.start),
      });
    };
    const timer = setInterval(() => void check().catch(() => undefined), 5000);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** The programme slot on the air at `at` (the presenters' windows and the home page ask). */
  async slotAt(at: number): Promise<Slot | null> {
    return slotAt(await this.slots(at), at);
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Reads the schedule again after each save staff make, on any instance (told on `bus`); returns what stops it. */
  followSaves(bus: Pick<EventBus, 'subscribe'>): () => void {
    return bus.subscribe(SCHEDULE_CHANGED_TOPIC, () => {
      this.scheduleVersion++;
      this.slotsRead.clear();
    });
  }

  /** The slots around `at`: from the day before its date to the day after. */
  private slots(at: number): Promise<Slot[]> {
    return this.slotsBetween(at, at);
  }

  /** The slots from the day before `from`'s date to the day after `to`'s, as read at most SLOTS_FRESH_MS ago. */
  private async slotsBetween(from: number, to: number): Promise<Slot[]> {
    const timeZone = this.deps.timeZone();
    const first = addDays(stationClock(new Date(from), timeZone).date, -1);
    const last = addDays(stationClock(new Date(to), timeZone).date, 1);
    const key = `${timeZone} ${first} ${last}`;
    const cached = this.slotsRead.get(key);
    if (cached && this.now() - cached.at < SLOTS_FRESH_MS) return cached.slots;
    const version = this.scheduleVersion;
    const slots = slotsOf(await airingsBetween(this.deps.db, first, last), timeZone);
    if (version === this.scheduleVersion) {
      if (this.slotsRead.size >= 8) this.slotsRead.clear();
      this.slotsRead.set(key, { at: this.now(), slots });
    }
    return slots;
  }

  private async catalogue(): Promise<Catalogue<State>> {
    const list = await this.deps.library();
    let read = readOf.get(list);
    if (!read)
      readOf.set(list, (read = { items: new Map(list.map((item) => [item.id, item])), newest: new Map() }));
    const { items, newest } = read;
    const { rotation } = this.deps;
    return {
      async pick(playlistId, at, state) {
        const picked = await rotation.pick(playlistId, at, state, items);
        return picked && { ...picked, item: planned(picked.item) };
      },
      async recording(mediaId) {
        const item = items.get(mediaId);
        return item ? planned(item) : null;
      },
      async newest(kind) {
        // Looked for once per kind and library read: the preview asks at every programme airing "the newest".
        if (!newest.has(kind)) {
          let found: Playable | null = null;
          for (const item of list)
            if (item.kind === kind && (!found || item.addedAt >= found.addedAt)) found = item;
          newest.set(kind, found && planned(found));
        }
        return newest.get(kind)!;
      },
    };
  }
}
