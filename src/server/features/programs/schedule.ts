import {
  DAYS_OF_WEEK,
  dayLabel,
  dayOfDate,
  MINUTES_PER_DAY,
  minutesOf,
  overlapSummary,
  timeRange,
  type Airs,
  type DayOfWeek,
  type Overlap,
} from '../../../common/programs.js';

// The schedule's arithmetic, free of the database: what airs on a date, and which programmes overlap.

/** A programme as it airs: a weekly entry, or a one-off's replacement or special service. */
export interface Airing {
  id: string;
  title: string;
  speaker: string | null;
  ministryFocus: string | null;
  description: string | null;
  startTime: string;
  duration: number;
  /** What plays in the slot; null: the rotation goes on. */
  airs: Airs | null;
}

export interface WeeklyEntry extends Airing {
  dayOfWeek: string;
  isActive: string;
}

export interface OneOffEntry {
  id: string;
  date: string;
  kind: 'cancel' | 'replace' | 'add';
  programId: string | null;
  title: string | null;
  speaker: string | null;
  ministryFocus: string | null;
  description: string | null;
  startTime: string | null;
  duration: number | null;
  airs: Airs | null;
}

const byStart = (a: Airing, b: Airing) => minutesOf(a.startTime) - minutesOf(b.startTime);

/**
 * What airs on `date`: the active weekly programmes of its weekday, less those a one-off cancels or
 * replaces that day, plus the replacements and added special services; by start time.
 */
export function airingsOn(date: string, weekly: WeeklyEntry[], oneOffs: OneOffEntry[]): Airing[] {
  const day = dayOfDate(date);
  const changes = oneOffs.filter((o) => o.date === date);
  const changed = new Set(changes.map((o) => o.programId));
  const kept = weekly.filter((p) => p.dayOfWeek === day && p.isActive === 'true' && !changed.has(p.id));
  const extra = changes.flatMap((o): Airing[] =>
    o.kind === 'cancel' || o.title === null || o.startTime === null || o.duration === null
      ? []
      : [{ ...o, title: o.title, startTime: o.startTime, duration: o.duration }],
  );
  return [...kept.map(airingOf), ...extra].sort(byStart);
}

const airingOf = (p: Airing): Airing => ({
  id: p.id,
  title: p.title,
  speaker: p.speaker,
  ministryFocus: p.ministryFocus,
  description: p.description,
  startTime: p.startTime,
  duration: p.duration,
  airs: p.airs,
});

/** A stretch of minutes on one line: [start, start + duration). */
interface Span {
  start: number;
  duration: number;
}

const WEEK_MINUTES = 7 * MINUTES_PER_DAY;

const sharesAMinute = (a: Span, b: Span, shift = 0) =>
  a.start < b.start + shift + b.duration && b.start + shift < a.start + a.duration;

/** Minutes since Sunday 00:00 at which a weekly programme starts. */
const weekSpan = (p: { dayOfWeek: string; startTime: string; duration: number }): Span => ({
  start: DAYS_OF_WEEK.indexOf(p.dayOfWeek as DayOfWeek) * MINUTES_PER_DAY + minutesOf(p.startTime),
  duration: p.duration,
});

/**
 * Whether two weekly programmes are on the air at the same minute. A programme that runs past midnight
 * counts on the next day too, and Saturday night runs into Sunday morning.
 */
export function overlapInWeek(
  a: { dayOfWeek: string; startTime: string; duration: number },
  b: { dayOfWeek: string; startTime: string; duration: number },
) {
  const [x, y] = [weekSpan(a), weekSpan(b)];
  return [-WEEK_MINUTES, 0, WEEK_MINUTES].some((shift) => sharesAMinute(x, y, shift));
}

/** For each active weekly programme, the other active ones it overlaps. */
export function weeklyOverlaps(weekly: WeeklyEntry[]): Map<string, string[]> {
  const active = weekly.filter((p) => p.isActive === 'true');
  return new Map(
    active.map((p) => [p.id, active.filter((q) => q.id !== p.id && overlapInWeek(p, q)).map((q) => q.id)]),
  );
}

/** An airing placed on a line of days: `dayOffset` 0 is the date in question, -1 the day before. */
export interface PlacedAiring extends Airing {
  dayOffset: number;
}

/** The airings among `others` that share a minute with `candidate` (on day 0). */
export function clashesWith(candidate: Airing, others: PlacedAiring[]): PlacedAiring[] {
  const span = { start: minutesOf(candidate.startTime), duration: candidate.duration };
  return others.filter((o) =>
    sharesAMinute(span, {
      start: o.dayOffset * MINUTES_PER_DAY + minutesOf(o.startTime),
      duration: o.duration,
    }),
  );
}

/** A save's refusal for an unconfirmed overlap: 'This overlaps "Midday Word" (Monday 12:00–13:00). …' */
export const overlapMessage = (overlaps: Overlap[]) =>
  `${overlapSummary(overlaps)} Confirm the overlap to save it anyway.`;

export const weeklyWhen = (p: { dayOfWeek: string; startTime: string; duration: number }) =>
  `${dayLabel(p.dayOfWeek as DayOfWeek)} ${timeRange(p.startTime, p.duration)}`;
