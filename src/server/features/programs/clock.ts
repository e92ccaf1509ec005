import { dayOfDate, type DayOfWeek } from '../../../common/programs.js';

/** One formatter per time zone: making one costs far more than using it, and the on-air schedule asks every second. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant's calendar fields (year, month, day, hour, minute, second) in a time zone. */
export function zonedParts(at: Date | number, timeZone: string): Record<string, number> {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** The weekday, minute of the day and calendar date at `now` in the station's time zone. */
export function stationClock(now: Date, timeZone: string): { day: DayOfWeek; minute: number; date: string } {
  const { year, month, day, hour, minute } = zonedParts(now, timeZone);
  const two = (n: number | undefined) => String(n).padStart(2, '0');
  const date = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`;
  return { day: dayOfDate(date), minute: hour! * 60 + minute!, date };
}
