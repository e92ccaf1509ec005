import { zonedParts } from '../programs/service.js';
import { dateIn, startOfDay } from '../listeners/service.js';

const DAY_MS = 86_400_000;

/** Midnight starting a date ('YYYY-MM-DD') in the station's time zone, as epoch ms. */
export function midnightOf(date: string, timeZone: string): number {
  const utc = Date.parse(`${date}T00:00:00Z`);
  // Noon UTC falls on the date in every zone from UTC−12 to UTC+11; further east, 00:00 UTC does.
  const probe = dateIn(new Date(utc + DAY_MS / 2), timeZone) === date ? utc + DAY_MS / 2 : utc;
  return startOfDay(new Date(probe), timeZone).getTime();
}

/** A report's period of whole station days as instants: [from's midnight, the midnight after `to`). */
export function periodInstants(period: { from: string; to: string }, timeZone: string) {
  const next = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  return { from: midnightOf(period.from, timeZone), to: midnightOf(next, timeZone) };
}

/** An instant as the station's clock read it, to the tenth of a second: 'YYYY-MM-DD HH:MM:SS.s'. */
export function localTime(at: Date, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  const tenth = Math.floor((at.getTime() % 1000) / 100);
  return `${dateIn(at, timeZone)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}.${tenth}`;
}

/** An instant in UTC to the tenth of a second: '2026-01-31T23:59:59.9Z'. */
export const utcTime = (at: Date) => `${at.toISOString().slice(0, 21)}Z`;
