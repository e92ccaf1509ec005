import { minutesOf, type Airs } from '../../../common/programs.js';
import { zonedParts } from '../programs/service.js';

// Where the schedule's programmes fall in real time: dates and 'HH:MM' in the station's time zone to instants.

/** A programme's slot on one date, in epoch milliseconds. */
export interface Slot {
  /** The programme and date: one airing, whose recording airs once. */
  key: string;
  programme: { id: string; title: string };
  start: number;
  end: number;
  /** What plays in it; the rotation kind only lists the programme. */
  airs: Airs;
}

/** An airing as the programmes feature gives it: on a date, from a time, for minutes. */
export interface DatedAiring {
  date: string;
  id: string;
  title: string;
  startTime: string;
  duration: number;
  airs: Airs | null;
}

/** How far ahead of UTC the time zone is at `at` (ms). */
function offsetAt(at: number, timeZone: string): number {
  const parts = zonedParts(at, timeZone);
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The instant a date's minute of the day falls on in the time zone (a minute skipped by a clock change moves on). */
export function instantOf(date: string, minute: number, timeZone: string): number {
  const local = Date.parse(`${date}T00:00:00Z`) + minute * 60_000;
  const first = offsetAt(local, timeZone);
  const second = offsetAt(local - first, timeZone);
  const instant = local - second;
  // In the hour a clock change skips, no instant reads that time: the first guess lands after the change.
  return offsetAt(instant, timeZone) === second ? instant : local - first;
}

/** The slots of the airings that say what plays, by start; a later start wins where two overlap. */
export function slotsOf(airings: DatedAiring[], timeZone: string): Slot[] {
  return airings
    .map((a): Slot => {
      const start = instantOf(a.date, minutesOf(a.startTime), timeZone);
      return {
        key: `${a.id}@${a.date}`,
        programme: { id: a.id, title: a.title },
        start,
        end: start + a.duration * 60_000,
        airs: a.airs ?? { kind: 'rotation', start: 'on_time', fillPlaylistId: null },
      };
    })
    .sort((a, b) => a.start - b.start);
}

/** The slot on the air at `at`: of those that cover it, the one that started last. */
export function slotAt(slots: Slot[], at: number): Slot | null {
  let found: Slot | null = null;
  for (const slot of slots) {
    if (slot.start > at) break;
    if (slot.end > at) found = slot;
  }
  return found;
}

/** Whether a slot changes what plays: a programme that only lists itself over the rotation does not. */
const steers = (slot: Slot) => slot.airs.kind !== 'rotation';

/**
 * The first moment after `from` and no later than `to` at which what plays must change at once: a steering
 * programme that starts on time, or one on time that ends (back to the rotation), unless its recording is
 * allowed to finish.
 */
export function hardChangeBetween(slots: Slot[], from: number, to: number): number | null {
  let first: number | null = null;
  const consider = (at: number) => {
    if (at > from && at <= to && (first === null || at < first)) first = at;
  };
  for (const slot of slots) {
    if (slot.start > to) break;
    if (!steers(slot) || slot.airs.start !== 'on_time') continue;
    consider(slot.start);
    const finishes = 'overrun' in slot.airs && slot.airs.overrun === 'finish';
    if (!finishes) consider(slot.end);
  }
  return first;
}
