import type { UpcomingEntry } from '../../../common/programs.js';
import type { LibraryItem } from '../../radio/library.js';
import { hardChangeBetween, slotAt, type Slot } from './slots.js';

// What airs when, as rules free of the database, the engine and the clock: the planner is handed the slots,
// a catalogue of what can play and the state of the rotation, and answers one item at a time.

/** A library item the planner can place: with its id, words and how long it airs (seconds). */
export interface PlannedItem extends LibraryItem {
  id: string;
  title: string;
  artist: string;
  length: number;
}

export type Flag = UpcomingEntry['flags'][number];

/** What can play. Picks are free of side effects: the rotation's state goes in and comes out. */
export interface Catalogue<State> {
  /** The next item of a playlist (null: the default rotation) at `at`, or null when it has nothing. */
  pick(
    playlistId: string | null,
    at: number,
    state: State,
  ): Promise<{ item: PlannedItem; state: State; relaxed?: string | null } | null>;
  /** A library item by id, when it is there and ready to air. */
  recording(mediaId: string): Promise<PlannedItem | null>;
  /** The newest ready item of a kind (this week's sermon), or null. */
  newest(kind: 'sermon' | 'devotion'): Promise<PlannedItem | null>;
}

export interface PlanState<State> {
  rotation: State;
  /** Slots whose recording has begun: a recording airs once per slot. */
  begun: string[];
}

/** One step of the plan: the item to air from `from`, where it ends, and what staff should know. */
export interface Step {
  item: PlannedItem | null;
  /** When the schedule fades it out (a programme's on-time start or end), if before its end. */
  endsBy: number | null;
  slot: Slot | null;
  flags: Flag[];
}

const minutes = (ms: number) => Math.round(ms / 60_000);

/** What airs from `from` (epoch ms), when what plays before it ends then. */
export async function planNext<State>(
  from: number,
  slots: Slot[],
  catalogue: Catalogue<State>,
  state: PlanState<State>,
): Promise<{ step: Step; state: PlanState<State> }> {
  const slot = slotAt(slots, from);
  const flags: Flag[] = [];
  let begun = state.begun;
  const airs = slot?.airs;
  let item: PlannedItem | null = null;
  let rotation = state.rotation;
  if (slot && airs && (airs.kind === 'recording' || airs.kind === 'newest') && !begun.includes(slot.key)) {
    item =
      airs.kind === 'recording'
        ? await catalogue.recording(airs.mediaId)
        : await catalogue.newest(airs.mediaKind);
    if (item) {
      begun = [...begun.slice(-50), slot.key];
      const over = from + item.length * 1000 - slot.end;
      if (over > 30_000)
        flags.push({
          kind: 'overrun',
          message:
            airs.overrun === 'finish'
              ? `"${item.title}" runs ${minutes(over)} min past the end of ${slot.programme.title}`
              : `"${item.title}" is longer than ${slot.programme.title}: it is faded out at the slot's end, ${minutes(over)} min before its own`,
        });
    } else
      flags.push({
        kind: 'missing_recording',
        message:
          airs.kind === 'recording'
            ? `The recording for ${slot.programme.title} is not in the library (or not analysed yet): its fill plays instead`
            : `There is no ${airs.mediaKind} in the library for ${slot.programme.title}: its fill plays instead`,
      });
  }
  if (!item) {
    const playlistId =
      !slot || !airs ? null : airs.kind === 'playlist' ? airs.playlistId : airs.fillPlaylistId;
    const own = await catalogue.pick(playlistId, from, rotation);
    const picked = own ?? (playlistId !== null ? await catalogue.pick(null, from, rotation) : null);
    if (playlistId !== null && !own)
      flags.push({
        kind: 'missing_playlist',
        message: `The playlist of ${slot!.programme.title} has nothing to play: the default rotation plays`,
      });
    if (picked) {
      item = picked.item;
      rotation = picked.state;
      if (picked.relaxed) flags.push({ kind: 'rules_relaxed', message: picked.relaxed });
    }
  }
  const ends = item ? from + item.length * 1000 : from;
  const recordingFinishes = !!airs && 'overrun' in airs && airs.overrun === 'finish' && item !== null;
  const change = item ? hardChangeBetween(slots, from, ends - 1) : null;
  const endsBy = change !== null && !(recordingFinishes && change === slot?.end) ? change : null;
  return { step: { item, endsBy, slot, flags }, state: { rotation, begun } };
}

/** What airs from `from` to `to`, item by item, with what staff should know before it happens. */
export async function planBetween<State>(
  from: number,
  to: number,
  slots: Slot[],
  catalogue: Catalogue<State>,
  start: PlanState<State>,
  limit = 5000,
): Promise<UpcomingEntry[]> {
  const entries: UpcomingEntry[] = [];
  const relaxedSaid = new Set<string>();
  let state = start;
  let at = from;
  const iso = (ms: number) => new Date(ms).toISOString();
  while (at < to && entries.length < limit) {
    const slot = slotAt(slots, at);
    if (slot?.airs.kind === 'live') {
      // The presenter's encoder takes the air; the fill covers them if they are not there.
      entries.push({
        at: iso(at),
        until: iso(slot.end),
        kind: 'live',
        title: slot.programme.title,
        artist: null,
        mediaId: null,
        programme: slot.programme,
        flags: [],
      });
      at = slot.end;
      continue;
    }
    const next = await planNext(at, slots, catalogue, state);
    state = next.state;
    const { item, endsBy, flags } = next.step;
    if (!item) {
      // Nothing to play until something changes: each programme's share of the gap is shown as its own.
      const until = nextBoundary(slots, at, to);
      entries.push({
        at: iso(at),
        until: iso(until),
        kind: 'gap',
        title: 'Nothing to play',
        artist: null,
        mediaId: null,
        programme: slot?.programme ?? null,
        flags: [
          ...flags,
          { kind: 'gap', message: 'The library has nothing ready to air here: the test transmission plays' },
        ],
      });
      at = until;
      continue;
    }
    const until = Math.min(endsBy ?? Infinity, at + Math.max(1, item.length) * 1000);
    // A playlist too small for its rules would say so at every song: it is said at the first.
    const news = flags.filter((flag) => flag.kind !== 'rules_relaxed' || !relaxedSaid.has(flag.message));
    for (const flag of news) if (flag.kind === 'rules_relaxed') relaxedSaid.add(flag.message);
    entries.push({
      at: iso(at),
      until: iso(until),
      kind: 'item',
      title: item.title,
      artist: item.artist,
      mediaId: item.id,
      programme: next.step.slot?.programme ?? null,
      flags: news,
    });
    at = until;
  }
  return entries;
}

/** The first programme start or end after `from`, or `to`. */
function nextBoundary(slots: Slot[], from: number, to: number): number {
  let first = to;
  for (const slot of slots) {
    if (slot.start > from && slot.start < first) first = slot.start;
    if (slot.end > from && slot.end < first) first = slot.end;
  }
  return first;
}
