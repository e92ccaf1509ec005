import { dayOfDate, type DayOfWeek } from '../../../common/programs.js';

/** One formatter per time zone: making one costs far more than using it, and the on-air schedule asks every second. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The weekday, minute of the day and calendar date at `now` in the station's time zone. */
export function stationClock(now: Date, timeZone: string): { day: DayOfWeek; minute: number; date: string } {
  const parts = formatterFor(timeZone).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year')}-${get('month')}-${get('day')}`;
  return { day: dayOfDate(date), minute: Number(get('hour')) * 60 + Number(get('minute')), date };
}
