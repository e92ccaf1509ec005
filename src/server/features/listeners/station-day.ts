import { zonedParts } from '../programs/service.js';

/** 'YYYY-MM-DD' of an instant in a time zone. */
export function dateIn(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(p.year).padStart(4, '0')}-${two(p.month!)}-${two(p.day!)}`;
}

/** Midnight of `now`'s date in the station's time zone, as an instant. */
export function startOfDay(now: Date, timeZone: string): Date {
  const parts = zonedParts(now, timeZone);
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
