import { and, asc, gte, lt } from 'drizzle-orm';
import { MAX_CHART_POINTS, type ListenerStats, type ListenerStatsPeriod } from '../../../common/listeners.js';
import type { Database } from '../../db/client.js';
import { listenerMinutes } from '../../db/schema.js';
import { listenerStats } from '../../radio/listener-stats.js';

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of an instant in a time zone. */
export function dateIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
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
  const rows = await db
    .select({ minute: listenerMinutes.minute, seconds: listenerMinutes.listeningSeconds })
    .from(listenerMinutes)
    .where(
      and(gte(listenerMinutes.minute, since), lt(listenerMinutes.minute, new Date(now.getTime() + 60_000))),
    )
    .orderBy(asc(listenerMinutes.minute));
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
