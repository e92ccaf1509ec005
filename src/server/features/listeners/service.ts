import { MAX_CHART_POINTS, type ListenerStats, type ListenerStatsPeriod } from '../../../common/listeners.js';
import type { Database } from '../../db/client.js';
import { floorMinute, type MinuteFigures } from '../../radio/listener-stats.js';
import { latestMinutes, secondsPerMinute, totalsSince, upsertMinute } from './repository.js';
import { dateIn, startOfDay } from './station-day.js';

export { dateIn, startOfDay } from './station-day.js';
export { openCountryTally, type CountryTally } from './countries.js';
export { ListenerSessions } from './sessions.js';
export { concurrency, type Interval } from './sweep.js';
export {
  deleteSessionsBefore,
  sessionSpansOverlapping,
  sessionsOverlapping,
  type SessionRow,
  type SessionSpan,
} from './sessions-repository.js';

const DAY_MS = 86_400_000;

/** Stores one minute's figures, on its whole minute. */
export async function recordMinute(db: Database, figures: MinuteFigures): Promise<void> {
  await upsertMinute(db, { ...figures, minute: new Date(floorMinute(figures.minute.getTime())) });
}

export interface ListenerTotals {
  /** Highest listener count of the station's current day (stored minutes). */
  peakToday: number;
  /** Hours listened in the station's current day (stored minutes). */
  hoursToday: number;
  /** Hours listened over the period. */
  listeningHours: number;
  /** Highest listener count over the period. */
  peak: number;
  /** Per-minute series over the period, oldest first. */
  series: { minute: string; listeners: number; peak: number }[];
}

/** Listener figures for the last `days` days, for the statistics card and the staff charts. */
export async function listenerStats(
  db: Database,
  options: { days: number; timeZone?: string; now?: Date },
): Promise<ListenerTotals> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - options.days * DAY_MS);
  const period = await totalsSince(db, since);
  const day = await totalsSince(db, startOfDay(now, options.timeZone ?? 'UTC'));
  const rows = await latestMinutes(db, since, options.days * 1440);
  return {
    peakToday: day.peak,
    hoursToday: Math.round((day.seconds / 3600) * 100) / 100,
    listeningHours: Math.round((period.seconds / 3600) * 100) / 100,
    peak: period.peak,
    series: rows
      .reverse()
      .map((r) => ({ minute: r.minute.toISOString(), listeners: r.listeners, peak: r.peak })),
  };
}

/** Merges runs of per-minute points into at most `maxPoints`, keeping each run's highest count (a peak is never hidden). */
export function mergeMinutes<T extends { at: string; listeners: number }>(
  points: T[],
  maxPoints = MAX_CHART_POINTS,
) {
  const minutesPerPoint = Math.max(1, Math.ceil(points.length / maxPoints));
  if (minutesPerPoint === 1)
    return { minutesPerPoint, points: points.map(({ at, listeners }) => ({ at, listeners })) };
  const merged: { at: string; listeners: number }[] = [];
  for (let i = 0; i < points.length; i += minutesPerPoint) {
    const run = points.slice(i, i + minutesPerPoint);
    merged.push({ at: run[0]!.at, listeners: Math.max(...run.map((p) => p.listeners)) });
  }
  return { minutesPerPoint, points: merged };
}

/** Hours listened on each of the last `days` station days, oldest first, quiet days as 0. */
async function hoursPerDay(db: Database, days: number, timeZone: string, now: Date) {
  const since = new Date(now.getTime() - days * DAY_MS);
  const rows = await secondsPerMinute(db, since, new Date(now.getTime() + 60_000));
  const totals = new Map<string, number>();
  for (let day = days - 1; day >= 0; day--)
    totals.set(dateIn(new Date(now.getTime() - day * DAY_MS), timeZone), 0);
  for (const row of rows) {
    const date = dateIn(row.minute, timeZone);
    if (totals.has(date)) totals.set(date, totals.get(date)! + row.seconds);
  }
  return [...totals].map(([date, seconds]) => ({ date, hours: Math.round((seconds / 3600) * 100) / 100 }));
}

/** The Listeners tab's figures: the radio engine's stored per-minute measurements over 7 or 30 days. */
export async function listenerFigures(
  db: Database,
  options: { days: ListenerStatsPeriod; timeZone: string; now?: Date },
): Promise<ListenerStats> {
  const now = options.now ?? new Date();
  const stats = await listenerStats(db, { days: options.days, timeZone: options.timeZone, now });
  const { minutesPerPoint, points } = mergeMinutes(
    stats.series.map((s) => ({ at: s.minute, listeners: s.peak })),
  );
  return {
    days: options.days,
    until: now.toISOString(),
    peakListeners: stats.peak,
    listeningHours: stats.listeningHours,
    perMinute: points,
    minutesPerPoint,
    perDay: await hoursPerDay(db, options.days, options.timeZone, now),
  };
}
