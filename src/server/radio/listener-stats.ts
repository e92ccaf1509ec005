import { and, desc, gte, max, sql, sum } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { listenerMinutes } from '../db/schema.js';

export interface MinuteFigures {
  minute: Date;
  listeners: number;
  peak: number;
  listeningSeconds: number;
}

/**
 * Counts listeners as they come and go: the peak and the seconds listened within the current minute,
 * handed over once a minute to be stored.
 */
export class ListenerMeter {
  private minuteStart: number;
  private peak = 0;
  private listenedMs = 0;
  private readonly connected = new Map<number, number>();
  private nextId = 0;
  /** Highest count seen today (station-day), kept in memory for the live figure. */
  peakToday = 0;

  constructor(
    private current = 0,
    now = Date.now(),
  ) {
    this.minuteStart = floorMinute(now);
  }

  get listeners(): number {
    return this.current;
  }

  /** A listener joined; returns the handle to pass to `leave`. */
  join(now = Date.now()): number {
    this.current++;
    this.peak = Math.max(this.peak, this.current);
    this.peakToday = Math.max(this.peakToday, this.current);
    const id = this.nextId++;
    this.connected.set(id, now);
    return id;
  }

  leave(id: number, now = Date.now()): void {
    const since = this.connected.get(id);
    if (since === undefined) return;
    this.connected.delete(id);
    this.current--;
    this.listenedMs += now - Math.max(since, this.minuteStart);
  }

  /** Closes the minute that began at `minuteStart`: its figures, and a fresh minute begins at `now`. */
  rollMinute(now = Date.now()): MinuteFigures {
    const end = Math.max(now, this.minuteStart);
    let listened = this.listenedMs;
    for (const since of this.connected.values()) listened += end - Math.max(since, this.minuteStart);
    const figures = {
      minute: new Date(this.minuteStart),
      listeners: this.current,
      peak: Math.max(this.peak, this.current),
      listeningSeconds: Math.round(listened / 1000),
    };
    this.minuteStart = end;
    this.peak = this.current;
    this.listenedMs = 0;
    return figures;
  }

  resetDay(): void {
    this.peakToday = this.current;
  }
}

const floorMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** Stores one minute's figures (a repeated minute adds up, e.g. after a restart within it). */
export async function recordMinute(db: Database, figures: MinuteFigures): Promise<void> {
  const minute = new Date(floorMinute(figures.minute.getTime()));
  await db
    .insert(listenerMinutes)
    .values({ ...figures, minute })
    .onConflictDoUpdate({
      target: listenerMinutes.minute,
      set: {
        listeners: figures.listeners,
        peak: sql`greatest(${listenerMinutes.peak}, ${figures.peak})`,
        listeningSeconds: sql`${listenerMinutes.listeningSeconds} + ${figures.listeningSeconds}`,
      },
    });
}

export interface ListenerStats {
  /** Highest listener count of the station's current day (stored minutes). */
  peakToday: number;
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
): Promise<ListenerStats> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - options.days * 86_400_000);
  const today = startOfDay(now, options.timeZone ?? 'UTC');
  const [period] = await db
    .select({ seconds: sum(listenerMinutes.listeningSeconds), peak: max(listenerMinutes.peak) })
    .from(listenerMinutes)
    .where(gte(listenerMinutes.minute, since));
  const [day] = await db
    .select({ peak: max(listenerMinutes.peak) })
    .from(listenerMinutes)
    .where(gte(listenerMinutes.minute, today));
  const rows = await db
    .select()
    .from(listenerMinutes)
    .where(and(gte(listenerMinutes.minute, since)))
    .orderBy(desc(listenerMinutes.minute))
    .limit(options.days * 1440);
  return {
    peakToday: day?.peak ?? 0,
    listeningHours: Math.round((Number(period?.seconds ?? 0) / 3600) * 100) / 100,
    peak: period?.peak ?? 0,
    series: rows
      .reverse()
      .map((r) => ({ minute: r.minute.toISOString(), listeners: r.listeners, peak: r.peak })),
  };
}

/** Midnight of `now`'s date in the station's time zone, as an instant. */
export function startOfDay(now: Date, timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(now)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  const offset = asUtc - Math.floor(now.getTime() / 1000) * 1000;
  return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!) - offset);
}
